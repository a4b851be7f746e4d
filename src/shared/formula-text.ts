/**
 * Column references in formula text, shared by the engine's lexer (src/engine/formula/lexer.ts), the
 * server (names to keys on save) and the editor (keys to names on display, autocomplete).
 *
 * A formula names a column in square brackets. People write the column's display name,
 * `[Amount]`; the model stores the column's key, `[zfkj]`, so a rename never breaks a formula and
 * the formula shows the new name. The one escape: a `]` inside a name is written twice
 * (`[Net]] total]` is the column "Net] total"). Quotes and `[` need no escape inside brackets.
 *
 * How a name in brackets is resolved (resolveColumnName):
 * 1. the columns whose display name is exactly the text;
 * 2. else those whose display name equals it ignoring case and surrounding spaces;
 * 3. else the column whose key is the text (the stored form, also what API clients may send).
 * Two or more columns found at step 1 or 2 is ambiguous: the formula is refused with a message naming
 * the name and how many columns carry it, and the user renames one of them (Edit existing columns).
 */

export interface NamedColumn {
  columnKey: string;
  displayName: string;
}

/**
 * Reads from `start` (an opening delimiter) up to a `close` that is not doubled; the content has
 * doubled closers made single. Null when the text ends first.
 */
export function readDelimited(text: string, start: number, close: string): { content: string; end: number } | null {
  let content = '';
  let index = start + 1;
  for (;;) {
    const next = text.indexOf(close, index);
    if (next === -1) return null;
    content += text.slice(index, next);
    if (text[next + 1] === close) {
      content += close;
      index = next + 2;
    } else {
      return { content, end: next + 1 };
    }
  }
}

/** `[Net]] total]` for the name "Net] total". */
export function columnReference(name: string): string {
  return `[${name.replaceAll(']', ']]')}]`;
}

export interface ColumnReferenceSpan {
  /** Offset of `[` (0-based). */
  start: number;
  /** Offset after the closing `]`. */
  end: number;
  /** The text inside, escapes undone. */
  name: string;
}

/**
 * The bracketed references of a formula in reading order, skipping quoted text the way the lexer
 * does. An unclosed bracket or quote ends the scan (the formula does not parse anyway).
 */
export function columnReferences(text: string): ColumnReferenceSpan[] {
  const found: ColumnReferenceSpan[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "'" || char === '"' || char === '[') {
      const read = readDelimited(text, index, char === '[' ? ']' : char);
      if (!read) break;
      if (char === '[') found.push({ start: index, end: read.end, name: read.content });
      index = read.end;
    } else {
      index += 1;
    }
  }
  return found;
}

export type ResolvedName =
  { kind: 'column'; columnKey: string } | { kind: 'ambiguous'; count: number } | { kind: 'unknown' };

const folded = (name: string): string => name.trim().toLocaleLowerCase();

/** The column a bracketed name refers to, by the rule at the top of this file. */
export function resolveColumnName(name: string, columns: readonly NamedColumn[]): ResolvedName {
  const exact = columns.filter((c) => c.displayName === name);
  const matches = exact.length > 0 ? exact : columns.filter((c) => folded(c.displayName) === folded(name));
  if (matches.length === 1) return { kind: 'column', columnKey: matches[0]!.columnKey };
  if (matches.length > 1) return { kind: 'ambiguous', count: matches.length };
  const byKey = columns.find((c) => c.columnKey === name);
  return byKey ? { kind: 'column', columnKey: byKey.columnKey } : { kind: 'unknown' };
}

/**
 * A stored formula (column keys) as people read and edit it: each key replaced by its column's
 * current display name. A key that is no longer a column stays as written, so the problem
 * ("A column has been removed…") still names it.
 */
export function formulaForDisplay(stored: string, columns: readonly NamedColumn[]): string {
  const byKey = new Map(columns.map((c) => [c.columnKey, c.displayName]));
  let shown = '';
  let at = 0;
  for (const ref of columnReferences(stored)) {
    const name = byKey.get(ref.name);
    if (name === undefined) continue;
    shown += stored.slice(at, ref.start) + columnReference(name);
    at = ref.end;
  }
  return shown + stored.slice(at);
}

/** What the editor may complete at the caret: a column name after `[`, or a function name. */
export type CompletionContext =
  { kind: 'column'; start: number; query: string } | { kind: 'function'; start: number; query: string } | null;

const NAME_BEFORE_CARET = /[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Inside an unclosed `[` (outside quotes): a column, from the `[` (the name typed so far, `]]` read
 * as `]`). Right after letters that start a name (not part of a number): a function. Else nothing.
 */
export function completionContext(text: string, caret: number): CompletionContext {
  const before = text.slice(0, caret);
  let index = 0;
  while (index < before.length) {
    const char = before[index]!;
    if (char === "'" || char === '"' || char === '[') {
      const read = readDelimited(before, index, char === '[' ? ']' : char);
      if (!read) {
        if (char !== '[') return null;
        // A `]` that ends the prefix may be the first half of `]]`: still inside.
        return { kind: 'column', start: index, query: before.slice(index + 1).replaceAll(']]', ']') };
      }
      index = read.end;
    } else {
      index += 1;
    }
  }
  const name = NAME_BEFORE_CARET.exec(before);
  if (!name) return null;
  const start = before.length - name[0].length;
  if (start > 0 && /[0-9.]/.test(before[start - 1]!)) return null;
  return { kind: 'function', start, query: name[0] };
}
