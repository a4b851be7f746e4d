/**
 * A registered source's own specification (its SPEC message): the definition's specification shown
 * to accounts, and the check of an account's configuration against it before anything runs
 * (required fields, types, choices, patterns; top-level keys the specification does not declare
 * are refused, so a configuration cannot carry anything the source does not ask for).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isRecord } from '../rest-api/config-values';

type Schema = Record<string, unknown>;

export interface SourceSpecification {
  documentationUrl: string;
  /** connectionSpecification: a JSON Schema object (properties, required, Airbyte's airbyte_secret). */
  settings: Schema;
}

/** The specification of a SPEC message's `spec`; throws when it has no usable connectionSpecification. */
export function specificationOf(spec: unknown): SourceSpecification {
  if (!isRecord(spec) || !isRecord(spec.connectionSpecification))
    throw new Error('the SPEC message has no connectionSpecification object');
  const settings = { ...spec.connectionSpecification };
  if (!isRecord(settings.properties)) settings.properties = {};
  if (
    settings.required !== undefined &&
    !(Array.isArray(settings.required) && settings.required.every((r) => typeof r === 'string'))
  )
    throw new Error('connectionSpecification.required must be a list of property names');
  settings.type ??= 'object';
  return { documentationUrl: typeof spec.documentationUrl === 'string' ? spec.documentationUrl : '', settings };
}

/** Keys an object schema declares at its top level (its properties and those of its options). */
function declaredKeys(schema: Schema): Set<string> {
  const keys = new Set<string>();
  const add = (s: unknown) => {
    if (isRecord(s) && isRecord(s.properties)) for (const key of Object.keys(s.properties)) keys.add(key);
  };
  add(schema);
  for (const options of [schema.oneOf, schema.anyOf, schema.allOf]) {
    if (Array.isArray(options)) for (const option of options) add(option);
  }
  return keys;
}

/** The schema of the property at a JSON pointer (following properties only), for its title. */
function schemaAt(schema: Schema, pointer: string[]): Schema | null {
  let current: unknown = schema;
  for (const part of pointer) {
    if (!isRecord(current)) return null;
    const direct = isRecord(current.properties) ? current.properties[part] : undefined;
    if (direct !== undefined) {
      current = direct;
      continue;
    }
    const options = [current.oneOf, current.anyOf].flatMap((o) => (Array.isArray(o) ? o : []));
    current = options
      .map((o) => (isRecord(o) && isRecord(o.properties) ? o.properties[part] : undefined))
      .find(Boolean);
  }
  return isRecord(current) ? current : null;
}

const pointerOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

function labelOf(schema: Schema, pointer: string[]): string {
  const title = schemaAt(schema, pointer)?.title;
  return typeof title === 'string' && title ? title : pointer.join('.') || 'The configuration';
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function describe(schema: Schema, error: ErrorObject): string {
  const pointer = pointerOf(error.instancePath);
  const label = labelOf(schema, pointer);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${labelOf(schema, [...pointer, String(params.missingProperty)])}: This field is required`;
    case 'additionalProperties':
      return `Unknown setting '${[...pointer, String(params.additionalProperty)].join('.')}': the source has no such field.`;
    case 'type':
      return `${label}: must be ${String(params.type).split(',').map(article).join(' or ')}`;
    case 'enum':
      return `${label}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${label}: must be ${JSON.stringify(params.allowedValue)}`;
    case 'oneOf':
    case 'anyOf':
      return `${label}: matches none of its options`;
    case 'pattern': {
      const hint = schemaAt(schema, pointer)?.pattern_descriptor;
      return `${label}: Invalid format${typeof hint === 'string' ? ` (${hint})` : ''}`;
    }
    default:
      return `${label}: ${error.message ?? 'is not valid'}`;
  }
}

/** The part of a schema a schemaPath such as `#/properties/region/oneOf` points at. */
function schemaAtPath(schema: Schema, schemaPath: string): unknown {
  let current: unknown = schema;
  for (const part of pointerOf(schemaPath.replace(/^#/, ''))) {
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isRecord(current)) current = current[part];
    else return undefined;
  }
  return current;
}

function valueAt(value: unknown, pointer: string[]): unknown {
  let current = value;
  for (const part of pointer)
    current = isRecord(current) ? current[part] : Array.isArray(current) ? current[Number(part)] : undefined;
  return current;
}

/** Whether a value has what an option fixes with `const` (Airbyte's discriminators). */
function fitsConsts(option: unknown, value: unknown): boolean {
  if (!isRecord(option) || !isRecord(option.properties)) return true;
  return Object.entries(option.properties).every(
    ([key, property]) =>
      !isRecord(property) || !('const' in property) || (isRecord(value) && value[key] === property.const),
  );
}

/**
 * The error to show: errors inside a oneOf/anyOf option the value did not choose (its const
 * discriminator differs) are noise, so the first error of the chosen option wins, else the option
 * error itself.
 */
function mainError(schema: Schema, config: unknown, errors: ErrorObject[]): ErrorObject | undefined {
  const rejected: string[] = [];
  for (const error of errors) {
    if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') continue;
    const options = schemaAtPath(schema, error.schemaPath);
    const value = valueAt(config, pointerOf(error.instancePath));
    if (Array.isArray(options))
      options.forEach((option, i) => {
        if (!fitsConsts(option, value)) rejected.push(`${error.schemaPath}/${i}/`);
      });
  }
  const kept = errors.filter((e) => !rejected.some((prefix) => e.schemaPath.startsWith(prefix)));
  return kept.find((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf') ?? kept[0] ?? errors[0];
}

export type ConfigCheck = (config: unknown) => string | null;

/** A check of configurations against the settings schema: null when valid, else one sentence. */
export function configChecker(settings: Schema): ConfigCheck {
  const { $schema: _ignored, ...schema } = settings;
  // Airbyte specifications carry keywords of their own (airbyte_secret, order, …): not strict.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, logger: false });
  const validate: ValidateFunction = ajv.compile(schema);
  const declared = declaredKeys(schema);
  return (config) => {
    if (!isRecord(config)) return 'The configuration must be a JSON object.';
    const unknown = Object.keys(config).find((key) => !declared.has(key));
    if (unknown !== undefined) return `Unknown setting '${unknown}': the source has no such field.`;
    if (validate(config)) return null;
    const error = mainError(schema, config, validate.errors ?? []);
    return error ? describe(schema, error) : "The configuration does not match the source's specification.";
  };
}
