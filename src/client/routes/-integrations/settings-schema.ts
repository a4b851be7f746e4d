/**
 * The create form's dynamic fields (spec §5): a definition's JSON Schema `settings` read into a list
 * of fields, with the form's draft values, their checks and the configuration they submit.
 * Number inputs keep their text in the draft so a half-typed value can be shown and reported.
 */

interface FieldBase {
  key: string;
  /** Dotted path from the configuration's root: the key of its value and of its error. */
  path: string;
  title: string;
  description?: string;
  required: boolean;
  advanced: boolean;
  /** The schema's `default`, the field's starting value. */
  initial?: unknown;
}

export type SettingsField = FieldBase &
  (
    | { kind: 'text' | 'password'; pattern: RegExp | null; patternDescription?: string; multiline: boolean }
    | { kind: 'number'; integer: boolean }
    | { kind: 'boolean' }
    | { kind: 'enum'; options: string[] }
    | { kind: 'json' }
    | { kind: 'object'; fields: SettingsField[] }
    | { kind: 'oneOf'; discriminator: string; options: { title: string; value: string; fields: SettingsField[] }[] }
    | { kind: 'unsupported'; message: string }
  );

export type Draft = Record<string, unknown>;
type Schema = Record<string, unknown>;

export const FIELD_MESSAGES = {
  required: 'This field is required',
  invalidFormat: 'Invalid format',
  notNumber: 'Value must be a number',
  invalidJson: 'Value must be valid JSON',
  missingDiscriminator: 'OneOf configuration missing discriminator field with const values.',
  unsupported: (type: string) => `Property type ${type} not supported.`,
} as const;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A backend pattern cleaned of its /delimiters/flags and ^ $ anchors (spec §5), null when invalid.
 * It is then searched for in the value: specs use prefix patterns such as `^https?://`.
 */
export function cleanPattern(pattern: string): RegExp | null {
  let source = pattern.trim();
  const delimited = /^\/(.*)\/[a-z]*$/s.exec(source);
  if (delimited) source = delimited[1] ?? '';
  source = source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

/** The one property every option of a oneOf fixes with `const`, if there is one. */
function discriminatorOf(options: Schema[]): string | null {
  const first = options[0];
  if (!first || !isObject(first.properties)) return null;
  for (const [key, property] of Object.entries(first.properties)) {
    if (!isObject(property) || property.const === undefined) continue;
    const everyOption = options.every(
      (o) => isObject(o.properties) && isObject(o.properties[key]) && 'const' in o.properties[key],
    );
    if (everyOption) return key;
  }
  return null;
}

function readField(key: string, schema: unknown, parentPath: string, required: boolean): SettingsField {
  const s = isObject(schema) ? schema : {};
  const base: FieldBase = {
    key,
    path: parentPath ? `${parentPath}.${key}` : key,
    title: text(s.title) ?? key,
    description: text(s.description),
    required,
    advanced: s.advanced === true,
    initial: s.default,
  };
  if (Array.isArray(s.oneOf)) {
    const options = s.oneOf.filter(isObject);
    const discriminator = discriminatorOf(options);
    if (!discriminator) return { ...base, kind: 'unsupported', message: FIELD_MESSAGES.missingDiscriminator };
    return {
      ...base,
      kind: 'oneOf',
      discriminator,
      options: options.map((option, i) => {
        const properties = option.properties as Record<string, Schema>;
        const fixed = properties[discriminator]?.const;
        const rest = Object.fromEntries(Object.entries(properties).filter(([k]) => k !== discriminator));
        return {
          title: text(option.title) ?? String(fixed ?? i),
          value: String(fixed),
          fields: readFields({ ...option, properties: rest }, base.path),
        };
      }),
    };
  }
  if (Array.isArray(s.enum)) return { ...base, kind: 'enum', options: s.enum.map(String) };
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string': {
      const secret = s.airbyte_secret === true || s.secret === true || s.format === 'password';
      const pattern = text(s.pattern);
      return {
        ...base,
        kind: secret ? 'password' : 'text',
        pattern: pattern ? cleanPattern(pattern) : null,
        patternDescription: text(s.pattern_descriptor) ?? text(s.patternDescription),
        multiline: s.multiline === true,
      };
    }
    case 'integer':
    case 'number':
      return { ...base, kind: 'number', integer: type === 'integer' };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'array':
      return { ...base, kind: 'json' };
    case 'object':
      return isObject(s.properties)
        ? { ...base, kind: 'object', fields: readFields(s, base.path) }
        : { ...base, kind: 'json' };
    default:
      return { ...base, kind: 'unsupported', message: FIELD_MESSAGES.unsupported(String(type ?? 'unknown')) };
  }
}

/** The fields of an object schema, in their `order` when given, else as written. */
export function readFields(schema: unknown, parentPath = ''): SettingsField[] {
  const s = isObject(schema) ? schema : {};
  const properties = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : []);
  const orderOf = (key: string) => {
    const order = (properties[key] as Schema | undefined)?.order;
    return typeof order === 'number' ? order : Number.MAX_SAFE_INTEGER;
  };
  const keys = Object.keys(properties).sort((a, b) => orderOf(a) - orderOf(b));
  return keys.map((key) => readField(key, properties[key], parentPath, required.has(key)));
}

/** A draft holding the schema's defaults, and each oneOf set to its first option. */
export function initialDraft(fields: SettingsField[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    if (field.kind === 'object') draft[field.key] = initialDraft(field.fields);
    else if (field.kind === 'oneOf') {
      const first = field.options[0];
      draft[field.key] = first ? optionDraft(field, first.value) : {};
    } else if (field.initial === undefined) continue;
    else if (field.kind === 'json') draft[field.key] = JSON.stringify(field.initial, null, 2);
    else draft[field.key] = field.kind === 'number' ? String(field.initial) : field.initial;
  }
  return draft;
}

/** A oneOf value switched to option `value`, with that option's defaults. */
export function optionDraft(field: Extract<SettingsField, { kind: 'oneOf' }>, value: string): Draft {
  const option = field.options.find((o) => o.value === value);
  return { [field.discriminator]: value, ...(option ? initialDraft(option.fields) : {}) };
}

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** The chosen option of a oneOf value. */
export function chosenOption(field: Extract<SettingsField, { kind: 'oneOf' }>, value: unknown) {
  const chosen = isObject(value) ? String(value[field.discriminator]) : undefined;
  return field.options.find((o) => o.value === chosen) ?? field.options[0];
}

/** Problems by field path; empty when the draft can be submitted. */
export function validateDraft(fields: SettingsField[], draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = draft[field.key];
    if (field.kind === 'unsupported') {
      // The field shows its message either way; only a required one keeps the form from completing.
      if (field.required) errors[field.path] = field.message;
      continue;
    }
    if (field.kind === 'object') Object.assign(errors, validateDraft(field.fields, isObject(value) ? value : {}));
    else if (field.kind === 'oneOf') {
      const option = chosenOption(field, value);
      if (option) Object.assign(errors, validateDraft(option.fields, isObject(value) ? value : {}));
    } else if (blank(value)) {
      if (field.required) errors[field.path] = FIELD_MESSAGES.required;
    } else if (field.kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || (field.integer && !Number.isInteger(n))) errors[field.path] = FIELD_MESSAGES.notNumber;
    } else if (
      (field.kind === 'text' || field.kind === 'password') &&
      field.pattern &&
      !field.pattern.test(String(value))
    ) {
      errors[field.path] = field.patternDescription ?? FIELD_MESSAGES.invalidFormat;
    } else if (field.kind === 'json') {
      try {
        JSON.parse(String(value));
      } catch {
        errors[field.path] = FIELD_MESSAGES.invalidJson;
      }
    }
  }
  return errors;
}

/** The configuration a valid draft submits: numbers as numbers, JSON parsed, blanks left out. */
export function toConfiguration(fields: SettingsField[], draft: Draft): Draft {
  const out: Draft = {};
  for (const field of fields) {
    const value = draft[field.key];
    if (field.kind === 'object') out[field.key] = toConfiguration(field.fields, isObject(value) ? value : {});
    else if (field.kind === 'oneOf') {
      const option = chosenOption(field, value);
      if (!option) continue;
      out[field.key] = {
        [field.discriminator]: option.value,
        ...toConfiguration(option.fields, isObject(value) ? value : {}),
      };
    } else if (field.kind === 'unsupported' || blank(value)) continue;
    else if (field.kind === 'number') out[field.key] = Number(value);
    else if (field.kind === 'json') out[field.key] = JSON.parse(String(value)) as unknown;
    else out[field.key] = value;
  }
  return out;
}
