/**
 * Formula text to tokens, each with its place in the text. Quoted text doubles its quote
 * (`'it''s'`), column names in brackets double `]` (`[a]]b]` is the column `a]b`); there are no
 * backslash escapes, so what a user sees is what the value is. The escape is shared with the
 * editor and the server (src/shared/formula-text.ts), so all three read a formula alike.
 */
import type { Span } from './ast';
import { readDelimited } from '../../shared/formula-text';
import { formulaError, positionOf } from './formula-error';

export const SYMBOLS = ['+', '-', '*', '/', '%', '&', '=', '<>', '!=', '<', '<=', '>', '>=', '(', ')', ','] as const;
export type FormulaSymbol = (typeof SYMBOLS)[number];

export type Token = Span & { text: string } & (
    | { kind: 'number'; value: number }
    | { kind: 'text'; value: string }
    | { kind: 'column'; key: string }
    /** A function name or keyword (TRUE, AND, ...), as written. */
    | { kind: 'name'; name: string }
    | { kind: 'symbol'; symbol: FormulaSymbol }
    | { kind: 'end' }
  );

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const WHITESPACE = /\s+/y;
// Longest first, so `<=` is not read as `<` then `=`.
const SYMBOLS_BY_LENGTH = [...SYMBOLS].sort((a, b) => b.length - a.length);

function matchAt(pattern: RegExp, text: string, index: number): string | null {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0] ?? null;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const space = matchAt(WHITESPACE, text, index);
    if (space) {
      index += space.length;
      continue;
    }
    const token = readToken(text, index);
    tokens.push(token);
    index = token.end;
  }
  tokens.push({ kind: 'end', start: text.length, end: text.length, text: '' });
  return tokens;
}

function readToken(text: string, start: number): Token {
  const char = text[start]!;
  if (char === "'" || char === '"') return readQuoted(text, start);
  if (char === '[') return readColumn(text, start);

  const number = matchAt(NUMBER, text, start);
  if (number) {
    const span = { start, end: start + number.length };
    const value = Number(number);
    if (!Number.isFinite(value)) {
      throw formulaError(`The number ${number} at ${positionOf(span)} is too large`, 'formula_syntax', span);
    }
    return { kind: 'number', value, text: number, ...span };
  }

  const name = matchAt(NAME, text, start);
  if (name) return { kind: 'name', name, text: name, start, end: start + name.length };

  const symbol = SYMBOLS_BY_LENGTH.find((candidate) => text.startsWith(candidate, start));
  if (symbol) return { kind: 'symbol', symbol, text: symbol, start, end: start + symbol.length };

  // One whole character, also outside the Basic Multilingual Plane (an emoji is two code units).
  const shown = String.fromCodePoint(text.codePointAt(start)!);
  const span = { start, end: start + shown.length };
  throw formulaError(`Unexpected character ${JSON.stringify(shown)} at ${positionOf(span)}`, 'formula_syntax', span);
}

function readQuoted(text: string, start: number): Token {
  const quote = text[start]!;
  const read = readDelimited(text, start, quote);
  if (!read) {
    const span = { start, end: text.length };
    throw formulaError(`The text starting at ${positionOf(span)} has no closing ${quote}`, 'formula_syntax', span);
  }
  return { kind: 'text', value: read.content, text: text.slice(start, read.end), start, end: read.end };
}

function readColumn(text: string, start: number): Token {
  const read = readDelimited(text, start, ']');
  if (!read) {
    const span = { start, end: text.length };
    throw formulaError(`The column starting at ${positionOf(span)} has no closing ]`, 'formula_syntax', span);
  }
  const span = { start, end: read.end };
  if (read.content === '') {
    throw formulaError(`Empty column name [] at ${positionOf(span)}`, 'formula_syntax', span);
  }
  return { kind: 'column', key: read.content, text: text.slice(start, read.end), ...span };
}
