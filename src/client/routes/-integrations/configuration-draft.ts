/**
 * Editing a saved configuration: the draft it starts from, the secrets it shows masked, and whether
 * the draft has changed. The server keeps a secret's stored value when it gets the mask back
 * unchanged (see sealConfiguration in the server's secrets.ts), so a masked secret is a valid value.
 */
import { SECRET_MASK } from '../../../shared/integrations';
import { chosenOption, type Draft, type SettingsField } from './settings-schema';

export const KEEP_SECRET_HINT = 'Leave unchanged to keep the saved value.';

const isObject = (value: unknown): value is Draft =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const blank = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The draft a saved configuration reads as: numbers and JSON as their text, each oneOf on its
 * option. A value the configuration leaves out shows the schema's default, which is what it means.
 */
export function draftFromConfiguration(fields: SettingsField[], configuration: Draft): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    const value = field.key in configuration ? configuration[field.key] : field.initial;
    if (field.kind === 'object') draft[field.key] = draftFromConfiguration(field.fields, isObject(value) ? value : {});
    else if (field.kind === 'oneOf') {
      const option = chosenOption(field, value);
      draft[field.key] = option
        ? {
            [field.discriminator]: option.value,
            ...draftFromConfiguration(option.fields, isObject(value) ? value : {}),
          }
        : {};
    } else if (value === undefined || value === null) continue;
    else if (field.kind === 'json') draft[field.key] = JSON.stringify(value, null, 2);
    else if (field.kind === 'number') draft[field.key] = String(value);
    else draft[field.key] = value;
  }
  return draft;
}

/** Paths of the fields whose value in the draft is the secret mask. */
export function maskedPaths(fields: SettingsField[], draft: Draft, into = new Set<string>()): Set<string> {
  for (const field of fields) {
    const value = draft[field.key];
    if (field.kind === 'object') maskedPaths(field.fields, isObject(value) ? value : {}, into);
    else if (field.kind === 'oneOf') {
      const option = chosenOption(field, value);
      if (option) maskedPaths(option.fields, isObject(value) ? value : {}, into);
    } else if (value === SECRET_MASK) into.add(field.path);
  }
  return into;
}

/** The fields with the keep hint on each secret whose saved value is masked. */
export function withKeepHints(fields: SettingsField[], masked: Set<string>): SettingsField[] {
  if (masked.size === 0) return fields;
  return fields.map((field): SettingsField => {
    if (field.kind === 'object') return { ...field, fields: withKeepHints(field.fields, masked) };
    if (field.kind === 'oneOf')
      return { ...field, options: field.options.map((o) => ({ ...o, fields: withKeepHints(o.fields, masked) })) };
    if (field.kind === 'password' && masked.has(field.path)) {
      const description = field.description ? `${field.description} ${KEEP_SECRET_HINT}` : KEEP_SECRET_HINT;
      return { ...field, description };
    }
    return field;
  });
}

/** Whether two drafts hold the same values; a missing value and an empty one count as the same. */
export function sameDraft(a: unknown, b: unknown): boolean {
  if (blank(a) && blank(b)) return true;
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameDraft(a[key], b[key]));
  }
  return Object.is(a, b);
}

/**
 * The configuration to save: the form's values, plus the saved values the form cannot show (keys
 * the schema does not describe, or describes with an unsupported type), so saving does not drop them.
 */
export function mergeUnshown(fields: SettingsField[], saved: Draft, next: Draft): Draft {
  const shown = new Set(fields.filter((f) => f.kind !== 'unsupported').map((f) => f.key));
  const kept = Object.entries(saved).filter(([key]) => !shown.has(key) && !(key in next));
  return { ...Object.fromEntries(kept), ...next };
}
