/**
 * One REST path, declared once: its method and path, who may call it, the shared zod schemas of
 * its path, query and body, and its answers. `endpoint()` registers the Fastify route, parses each
 * part of the request once with those schemas (a 400 `{ message }` naming the first problem),
 * resolves the caller once, and hands the handler typed input. The same declaration, kept in the
 * route's config, is what the OpenAPI document (openapi.ts) describes, so the document and the
 * handler cannot disagree.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { AccountContext, Deps, UserContext } from '../context';
import type { UserRow } from '../db/schema';
import { parseInput } from '../validate';
import { bodyOf, inAccount, signedIn } from './rest-context';

/** Who may call: anyone, a signed-in user, or a member acting in their current account. */
export type Access = 'public' | 'user' | 'account';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One answer of a path: JSON of a schema, a file of some content types, or nothing (204). */
export interface AnswerDoc {
  description: string;
  json?: z.ZodType;
  /** Content types of a file answer (a download). */
  file?: readonly string[];
}

type Schema = z.ZodType | undefined;

export interface EndpointSpec<P extends Schema, Q extends Schema, B extends Schema, A extends Access> {
  method: HttpMethod;
  /** OpenAPI form: /api/models/{id}. */
  path: string;
  summary: string;
  description?: string;
  /** The area the path belongs to (the document's tag). */
  tag: string;
  access: A;
  params?: P;
  query?: Q;
  /** A JSON body, parsed with this schema (an absent body reads as `{}`). */
  body?: B;
  /**
   * Other body encodings the path takes besides JSON: a form post carries the same fields as text
   * (parsed with `body` too).
   */
  formBody?: boolean;
  /** A multipart body the handler reads part by part; this schema only describes its parts. */
  multipart?: z.ZodType;
  /** Success answers by status; the error answers `{ message }` are added to the document. */
  answers: Record<number, AnswerDoc>;
  /** Error statuses worth naming besides the usual ones (e.g. 409, 413, 429). */
  errors?: readonly number[];
  /** Fastify route options (body limit, error handler, a hook that must run before any answer). */
  options?: Pick<RouteShorthandOptions, 'bodyLimit' | 'errorHandler' | 'onRequest'>;
}

/** Any endpoint's declaration, as the document and the tests read it. */
export type AnyEndpoint = EndpointSpec<Schema, Schema, Schema, Access>;

type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;
type CallerOf<A extends Access> = A extends 'account'
  ? AccountContext
  : A extends 'user'
    ? UserContext
    : { user: UserRow | null };

export interface EndpointCall<P extends Schema, Q extends Schema, B extends Schema, A extends Access> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  ctx: CallerOf<A>;
  req: FastifyRequest;
  reply: FastifyReply;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The path's declaration, kept with its route (the OpenAPI document and tests read it). */
    endpoint?: AnyEndpoint;
  }
}

/** `/api/models/{id}` as Fastify writes it: `/api/models/:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

function successStatus(spec: AnyEndpoint): number {
  const statuses = Object.keys(spec.answers).map(Number);
  return statuses.find((s) => s >= 200 && s < 300) ?? 200;
}

async function callerOf(req: FastifyRequest, deps: Deps, access: Access): Promise<unknown> {
  if (access === 'account') return inAccount(req, deps);
  if (access === 'user') return signedIn(req);
  return { user: req.user };
}

/** Registers the path; the handler's answer is sent with the declared success status. */
export function endpoint<
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  A extends Access = Access,
>(
  app: FastifyInstance,
  deps: Deps,
  spec: EndpointSpec<P, Q, B, A>,
  handler: (call: EndpointCall<P, Q, B, A>) => Promise<unknown>,
): void {
  const status = successStatus(spec as AnyEndpoint);
  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    // Who is calling first: a signed-out caller learns nothing about the input it sent.
    const ctx = await callerOf(req, deps, spec.access);
    const params = spec.params ? parseInput(spec.params, req.params) : undefined;
    const query = spec.query ? parseInput(spec.query, req.query) : undefined;
    const body = spec.body ? parseInput(spec.body, bodyOf(req)) : undefined;
    const answer = await handler({
      params,
      query,
      body,
      ctx,
      req,
      reply,
    } as EndpointCall<P, Q, B, A>);
    // A handler that sent its own answer (a file stream) returns the reply itself.
    if (answer === reply || reply.sent) return reply;
    if (status === 204) return reply.status(204).send();
    return reply.status(status).send(answer);
  };
  app.route({
    method: spec.method,
    url: fastifyPath(spec.path),
    ...spec.options,
    config: { endpoint: spec as AnyEndpoint },
    handler: handle,
  });
}
