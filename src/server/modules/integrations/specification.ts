/**
 * The one check of an integration definition's specification text, used wherever a definition is
 * written (POST /api/integration_definitions, the admin area) and by the admin editor's live check:
 * JSON syntax with line and column, the shape the forms read (settings.properties, settings.required),
 * then `settings` as a JSON Schema against ajv's draft-07 meta-schema, then compiled by ajv as the
 * configuration check will compile it (bad patterns, unresolvable $refs).
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { SpecificationCheck, SpecificationProblem } from '../../../shared/admin';
import type { IntegrationSpecification } from '../../../shared/integrations';
import { parseJsonText, type TextPosition } from '../../../shared/json-text';

/** More problems than this are not listed: the first ones are what to fix. */
const MAX_PROBLEMS = 20;

// Airbyte specifications carry keywords of their own (airbyte_secret, order, …): not strict.
const metaSchemaAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/settings/properties/a~1b` as `settings.properties.a/b`. */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function problem(message: string, pointer: string | null, position: TextPosition | null): SpecificationProblem {
  const path = pointer === null ? null : dotted(pointer);
  return {
    message: path ? `${path}: ${message}` : message,
    path,
    line: position?.line ?? null,
    column: position?.column ?? null,
  };
}

/** ajv's words for one error, with the allowed values when it lists them. */
function describeAjvError(error: ErrorObject): string {
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  const message = error.message ?? 'is not valid';
  return Array.isArray(allowed) ? `${message} (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : message;
}

/** The first error of each place in the schema: the later ones at the same place repeat it (anyOf branches). */
function firstPerPlace(errors: readonly ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (seen.has(e.instancePath)) return false;
    seen.add(e.instancePath);
    return true;
  });
}

/** Checks a specification text; `specification` is the parsed value when there is no problem. */
export function checkSpecification(
  text: string,
): SpecificationCheck & { specification: IntegrationSpecification | null } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { line, column } = parsed.position;
    return {
      valid: false,
      specification: null,
      problems: [
        {
          message: `Invalid JSON at line ${line}, column ${column}: ${parsed.message}`,
          path: null,
          line,
          column,
        },
      ],
    };
  }
  const at = (pointer: string) => parsed.positionOf(pointer);
  const fail = (problems: SpecificationProblem[]) => ({
    valid: false,
    specification: null,
    problems: problems.slice(0, MAX_PROBLEMS),
  });

  const root = parsed.value;
  if (!isObject(root)) return fail([problem('The specification must be a JSON object with settings.', null, at(''))]);
  const settings = root.settings;
  if (!isObject(settings))
    return fail([
      problem(
        'must be an object (a JSON Schema with properties)',
        '/settings',
        at(settings === undefined ? '' : '/settings'),
      ),
    ]);
  const shape: SpecificationProblem[] = [];
  const properties = settings.properties;
  if (!isObject(properties))
    shape.push(
      problem(
        'must be an object of fields',
        '/settings/properties',
        at(properties === undefined ? '/settings' : '/settings/properties'),
      ),
    );
  const required = settings.required;
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
      shape.push(problem('must be a list of property names', '/settings/required', at('/settings/required')));
    else if (isObject(properties))
      required.forEach((name: string, i) => {
        if (!Object.hasOwn(properties, name))
          shape.push(
            problem(
              `names '${name}', which is not a property`,
              `/settings/required/${i}`,
              at(`/settings/required/${i}`),
            ),
          );
      });
  }
  if (settings.type !== undefined && settings.type !== 'object')
    shape.push(problem("must be 'object'", '/settings/type', at('/settings/type')));
  if (shape.length > 0) return fail(shape);

  // The configuration check drops $schema the same way (connectors/airbyte/spec.ts): draft-07 rules.
  const { $schema: _dialect, ...schema } = settings;
  if (!metaSchemaAjv.validateSchema(schema)) {
    return fail(
      firstPerPlace(metaSchemaAjv.errors ?? []).map((e) => {
        const pointer = `/settings${e.instancePath}`;
        return problem(describeAjvError(e), pointer, at(pointer) ?? at('/settings'));
      }),
    );
  }
  try {
    // A fresh instance: compiled schemas are cached per instance, and these are one-off.
    new Ajv({ strict: false, validateSchema: false, validateFormats: false, logger: false }).compile(schema);
  } catch (error) {
    return fail([problem((error as Error).message, '/settings', at('/settings'))]);
  }
  return { valid: true, problems: [], specification: root as IntegrationSpecification };
}
