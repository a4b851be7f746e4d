/**
 * JSON with every number exactly as the source wrote it. Node 20's JSON.parse turns each number
 * into a double (9007199254740993 becomes …992, 0.30000000000000000001 becomes 0.3) and gives no
 * access to the source text, so a document is scanned first: a number token that a double would
 * not print back identically (more than 15 significant digits, an exponent, trailing zeros of a
 * fraction, -0) is parsed as an `ExactNumber` holding its text. Ordinary documents, whose numbers
 * all print back as written, are parsed by JSON.parse alone after the scan (about as fast as the
 * parse itself), and their numbers stay plain numbers.
 */
import { randomBytes } from 'node:crypto';

/** A JSON number kept as its source text, because a double would change it. */
export class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  /** Where a plain JSON.stringify meets it, it is written as a string: never rounded. */
  toJSON(): string {
    return this.text;
  }
}

export const isExactNumber = (value: unknown): value is ExactNumber => value instanceof ExactNumber;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a number token of at most 15 characters prints back the same from a double. */
function shortTokenIsCanonical(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x65 || c === 0x45) return false; // e, E
  }
  if (token.includes('.') && token.endsWith('0')) return false;
  if (token === '-0') return false;
  // Below 1e-6 a double prints with an exponent.
  return !(token.startsWith('0.000000') || token.startsWith('-0.000000'));
}

/** Whether JSON.parse of the token, printed again, gives back the token. */
export function isCanonicalNumber(token: string): boolean {
  // Up to 15 digits a double keeps every digit, so only the spelling can differ.
  if (token.length <= 15 && shortTokenIsCanonical(token)) return true;
  return String(Number(token)) === token;
}

/** Where the string starting at `start` (a quote) ends: the index of its closing quote, or -1. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}

const isNumberChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** Start and end of each number token that a double would change. Strings are skipped whole. */
function inexactTokens(text: string): number[] {
  const found: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break; // unterminated: JSON.parse reports it
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      if (!isCanonicalNumber(text.slice(i, j))) found.push(i, j);
      i = j - 1;
    }
  }
  return found;
}

/** Replaces marked strings by what `exact` makes of their number, without recursion (documents may nest deeply). */
function reviveMarked(root: unknown, marker: string, exact: (number: ExactNumber) => unknown): unknown {
  const revive = (value: unknown) =>
    typeof value === 'string' && value.startsWith(marker) ? exact(new ExactNumber(value.slice(marker.length))) : value;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'object' && item !== null) stack.push(item);
        else node[i] = revive(item);
      }
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item === 'object' && item !== null) stack.push(item);
        else record[key] = revive(item);
      }
    }
  }
  return revive(root);
}

/**
 * JSON.parse that keeps every number exactly (see above); throws SyntaxError like JSON.parse.
 * `exact` may turn each ExactNumber into something else (e.g. text for an answer). `parsed`, the
 * text already read by a plain parser, is the answer when every number is exact (no second parse).
 */
export function parseJsonExact(
  text: string,
  exact: (number: ExactNumber) => unknown = (n) => n,
  parsed?: unknown,
): unknown {
  const tokens = inexactTokens(text);
  if (tokens.length === 0) return parsed === undefined ? JSON.parse(text) : parsed;
  // Each inexact token becomes a string with a marker no document can guess, then an ExactNumber.
  const marker = `\u0000${randomBytes(8).toString('hex')}:`;
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < tokens.length; k += 2) {
    const start = tokens[k] as number;
    const end = tokens[k + 1] as number;
    parts.push(text.slice(last, start), `"\\u0000${marker.slice(1)}${text.slice(start, end)}"`);
    last = end;
  }
  parts.push(text.slice(last));
  return reviveMarked(JSON.parse(parts.join('')), marker, exact);
}

/** JSON text of a value, ExactNumbers (and bigints) written as the number tokens they are. */
export function exactJsonText(value: unknown): string {
  let marker: string | null = null;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, item: unknown) {
    const original = this[key];
    if (original instanceof ExactNumber || typeof original === 'bigint') {
      marker ??= `\u0000${randomBytes(8).toString('hex')}:`;
      return `${marker}${original.toString()}`;
    }
    return item;
  });
  if (text === undefined) return 'null';
  if (marker === null) return text;
  const escaped = `"\\u0000${(marker as string).slice(1)}`;
  // The marker's string holds only number characters after it, so its closing quote is the next one.
  let out = '';
  let from = 0;
  for (let at = text.indexOf(escaped); at >= 0; at = text.indexOf(escaped, from)) {
    const close = text.indexOf('"', at + escaped.length);
    out += text.slice(from, at) + text.slice(at + escaped.length, close);
    from = close + 1;
  }
  return out + text.slice(from);
}

/** Exact text of a number value: a double as JavaScript prints it, an ExactNumber or bigint as it is. */
export function numberText(value: number | bigint | ExactNumber): string {
  return typeof value === 'number' ? String(value) : value.toString();
}
