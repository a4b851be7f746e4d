/**
 * The spec's loose e-mail pattern: text, at sign, text, dot, text.
 * Used on both sides so the button state and the server agree.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A trailing $ is an anchor unless an odd number of backslashes escapes it (in 'price\$' it is a literal dollar). */
function stripEndAnchor(source: string): string {
  if (!source.endsWith('$')) return source;
  const backslashes = /\\*$/.exec(source.slice(0, -1))?.[0].length ?? 0;
  return backslashes % 2 === 0 ? source.slice(0, -1) : source;
}

/**
 * A backend-supplied regex pattern is cleaned of anchors and flags and ignored if invalid
 * (spec, shared interface behaviour). Returns null when the pattern cannot be used.
 */
export function cleanPattern(pattern: string | null | undefined): RegExp | null {
  if (!pattern) return null;
  let source = pattern.trim();
  const literal = /^\/(.*)\/[a-z]*$/s.exec(source);
  if (literal) source = literal[1] ?? '';
  source = stripEndAnchor(source.replace(/^\^/, ''));
  if (!source) return null;
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    return null;
  }
}
