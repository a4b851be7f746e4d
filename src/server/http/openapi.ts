/**
 * The OpenAPI 3.1 document of the REST API, generated from the endpoints' own declarations
 * (endpoint.ts): the zod schemas a path parses are turned into JSON Schema by zod itself
 * (z.toJSONSchema), so the document says what the handlers accept and answer.
 */
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api';
import { SESSION_COOKIE } from '../auth/sessions';
import type { AnyEndpoint } from './endpoint';

export type JsonSchema = { [key: string]: unknown };

/** What a request part accepts (`io: 'input'`: before defaults and transforms) or an answer holds. */
export type SchemaSide = 'request' | 'answer';

/**
 * The JSON Schema of one zod schema as the document holds it. A schema with named parts of its own
 * ($defs, e.g. a recursive one) has them moved to `components.schemas` under `owner`'s name.
 */
export function jsonSchemaOf(
  schema: z.ZodType,
  side: SchemaSide,
  owner = 'schema',
  components: Record<string, JsonSchema> = {},
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: side === 'request' ? 'input' : 'output',
    target: 'draft-2020-12',
    // A transform's or a custom check's result cannot be written as JSON Schema: it is described
    // by the part before it (requests) or left open (answers).
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  delete json.$defs;
  if (!defs) return json;
  const renamed = new Map(Object.keys(defs).map((name) => [`#/$defs/${name}`, `${owner}_${name}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        const target = key === '$ref' && typeof inner === 'string' ? renamed.get(inner) : undefined;
        return [key, target ? `#/components/schemas/${target}` : rewrite(inner)];
      }),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[`${owner}_${name}`] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

/** GET /api/models/{id} → getApiModelsId: a stable name per path and method. */
export function operationId(spec: Pick<AnyEndpoint, 'method' | 'path'>): string {
  const words = spec.path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return spec.method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const ERROR_TEXTS: Record<number, string> = {
  400: 'The input is not valid; the message names the first problem.',
  401: 'Not signed in.',
  403: 'Not allowed: not a member of an account, a read-only role, or a request from another site.',
  404: 'Not found, or not in the caller’s account.',
  409: 'Conflicts with the current state.',
  413: 'Too large.',
  415: 'This content type is not supported here.',
  429: 'Too many requests; Retry-After says when to try again.',
};

function errorStatuses(spec: AnyEndpoint): number[] {
  const statuses = new Set<number>(spec.errors ?? []);
  if (spec.params || spec.query || spec.body || spec.multipart) statuses.add(400);
  if (spec.access !== 'public') statuses.add(401);
  if (spec.access === 'account') statuses.add(403);
  if (spec.method !== 'GET') statuses.add(403);
  if (spec.params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

function parametersOf(
  schema: z.ZodType | undefined,
  place: 'path' | 'query',
  owner: string,
  components: Record<string, JsonSchema>,
) {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'request', owner, components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: place,
      required: place === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBodyOf(spec: AnyEndpoint, owner: string, components: Record<string, JsonSchema>) {
  if (spec.multipart) {
    return {
      required: true,
      content: { 'multipart/form-data': { schema: jsonSchemaOf(spec.multipart, 'request', owner, components) } },
    };
  }
  if (!spec.body) return undefined;
  const schema = jsonSchemaOf(spec.body, 'request', owner, components);
  return {
    // An absent body reads as `{}`: it may be left out when `{}` is a valid one.
    required: !spec.body.safeParse({}).success,
    content: {
      'application/json': { schema },
      ...(spec.formBody ? { 'application/x-www-form-urlencoded': { schema } } : {}),
    },
  };
}

function answersOf(spec: AnyEndpoint, owner: string, components: Record<string, JsonSchema>) {
  const answers: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(spec.answers)) {
    const content = answer.json
      ? { 'application/json': { schema: jsonSchemaOf(answer.json, 'answer', `${owner}_${status}`, components) } }
      : answer.file
        ? Object.fromEntries(answer.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]))
        : undefined;
    answers[status] = { description: answer.description, ...(content ? { content } : {}) };
  }
  for (const status of errorStatuses(spec)) {
    answers[String(status)] = {
      description: ERROR_TEXTS[status] ?? 'Refused.',
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  answers.default = {
    description: 'Any other failure, e.g. 500 when something went wrong on the server.',
    content: { 'application/json': { schema: ERROR_REF } },
  };
  return answers;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  serverUrl: string;
}

/** The whole document; paths in declaration order, methods under each path. */
export function openApiDocument(endpoints: readonly AnyEndpoint[], info: OpenApiInfo) {
  const components: Record<string, JsonSchema> = {
    Error: jsonSchemaOf(apiErrorSchema, 'answer'),
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of endpoints) {
    const id = operationId(spec);
    const body = requestBodyOf(spec, id, components);
    const parameters = [
      ...parametersOf(spec.params, 'path', `${id}_path`, components),
      ...parametersOf(spec.query, 'query', `${id}_query`, components),
    ];
    (paths[spec.path] ??= {})[spec.method.toLowerCase()] = {
      operationId: id,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [spec.tag],
      ...(spec.access === 'public' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: answersOf(spec, id, components),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        'The REST paths of the workspace. Calls are made as a signed-in user (the session cookie set by ' +
        'POST /api/confirm). State-changing calls send JSON (`{}` when there is nothing to say) or an ' +
        'Origin header naming this site. Every error answer is `{ message }`.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ session: [] }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
