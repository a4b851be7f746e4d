import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isModelError, type ModelError } from '../../src/engine/errors';
import { formulaNamesToKeys, parseFormula, referencedColumnKeys } from '../../src/engine/formula';
import { tokenize } from '../../src/engine/formula/lexer';
import {
  columnReference,
  columnReferences,
  formulaForDisplay,
  resolveColumnName,
  type NamedColumn,
} from '../../src/shared/formula-text';

const COLUMNS: NamedColumn[] = [
  { columnKey: 'zfkj', displayName: 'Amount' },
  { columnKey: 'qwer', displayName: 'Net] total' },
  { columnKey: 'asdf', displayName: 'customer_id' },
  { columnKey: 'ghjk', displayName: 'customer_id' },
  { columnKey: 'yxcv', displayName: 'Unit price' },
];

function thrown(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (isModelError(error)) return error;
    throw error;
  }
  throw new Error('expected a ModelError');
}

describe('formulas by column name', () => {
  it('turns display names into keys and back', () => {
    const typed = 'ROUND([Amount] * 1.2, 2)';
    const keyed = formulaNamesToKeys(typed, COLUMNS);
    expect(keyed.text).toBe('ROUND([zfkj] * 1.2, 2)');
    expect(referencedColumnKeys(keyed.text)).toEqual(['zfkj']);
    expect(formulaForDisplay(keyed.text, COLUMNS)).toBe(typed);
  });

  it('reads a name with ] written twice, spaces and case ignored when nothing matches exactly', () => {
    expect(formulaNamesToKeys('[Net]] total] + [ unit PRICE ]', COLUMNS).text).toBe('[qwer] + [yxcv]');
    expect(formulaForDisplay('[qwer] + [yxcv]', COLUMNS)).toBe('[Net]] total] + [Unit price]');
    expect(columnReference('a]b]')).toBe('[a]]b]]]');
  });

  it('still takes keys (the stored form, and what API clients send)', () => {
    expect(formulaNamesToKeys('[zfkj] * 2', COLUMNS).text).toBe('[zfkj] * 2');
  });

  it('prefers a display name over a key that reads the same', () => {
    const columns = [...COLUMNS, { columnKey: 'amnt', displayName: 'zfkj' }];
    expect(formulaNamesToKeys('[zfkj]', columns).text).toBe('[amnt]');
  });

  it('leaves quoted text alone', () => {
    const typed = "[Amount] & '[Amount]' & \"it's [Amount]\"";
    expect(formulaNamesToKeys(typed, COLUMNS).text).toBe("[zfkj] & '[Amount]' & \"it's [Amount]\"");
    expect(formulaForDisplay("[zfkj] & '[zfkj]'", COLUMNS)).toBe("[Amount] & '[zfkj]'");
  });

  it('names an unknown column and its position, once', () => {
    const error = thrown(() => formulaNamesToKeys('ROUND([amout] * 1.2, 2)', COLUMNS));
    expect(error.message).toBe('Unknown column [amout] at position 7');
    expect(error.code).toBe('unknown_column');
    expect(error.location).toEqual(['function', 6, 13]);
  });

  it('refuses an ambiguous name, naming it and how many columns carry it', () => {
    const error = thrown(() => formulaNamesToKeys('[Amount] + [customer_id]', COLUMNS));
    expect(error.message).toBe(
      'The name [customer_id] at position 12 is ambiguous: 2 columns are named customer_id. Rename one of them under Edit existing columns.',
    );
    expect(error.location).toEqual(['function', 11, 24]);
    expect(resolveColumnName('customer_id', COLUMNS)).toEqual({ kind: 'ambiguous', count: 2 });
    // Each of the two still reads by its key.
    expect(formulaNamesToKeys('[asdf] + [ghjk]', COLUMNS).text).toBe('[asdf] + [ghjk]');
  });

  it('reports a syntax error at its place in the typed text', () => {
    const error = thrown(() => formulaNamesToKeys('[Amount] * ', COLUMNS));
    expect(error.code).toBe('formula_syntax');
    expect(thrown(() => formulaNamesToKeys('[Amount] +* 2', COLUMNS)).location).toEqual(['function', 10, 11]);
  });

  it('maps an offset of the keyed text back to the typed text', () => {
    const keyed = formulaNamesToKeys('[Unit price] * [Amount] + 1', COLUMNS);
    expect(keyed.text).toBe('[yxcv] * [zfkj] + 1');
    expect(keyed.toTyped(0)).toBe(0);
    expect(keyed.toTyped(6)).toBe(12);
    expect(keyed.toTyped(9)).toBe(15);
    expect(keyed.toTyped(15)).toBe(23);
    expect(keyed.toTyped(18)).toBe(26);
  });

  it('keeps a formula working and readable after a rename: keys stay, names follow', () => {
    const stored = formulaNamesToKeys('[Amount] * 2', COLUMNS).text;
    const renamed = COLUMNS.map((c) => (c.columnKey === 'zfkj' ? { ...c, displayName: 'Total' } : c));
    expect(stored).toBe('[zfkj] * 2');
    expect(formulaForDisplay(stored, renamed)).toBe('[Total] * 2');
    expect(formulaNamesToKeys('[Total] * 2', renamed).text).toBe(stored);
  });

  it('shows a key that is no longer a column as written', () => {
    expect(formulaForDisplay('[gone] + [zfkj]', COLUMNS)).toBe('[gone] + [Amount]');
  });

  it('finds the same references as the lexer, over any text', () => {
    const piece = fc.constantFrom('[', ']', "'", '"', 'a', ' ', '+', ']]', "''", 'Amount', '1');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        let tokens;
        try {
          tokens = tokenize(text);
        } catch {
          return; // not a formula
        }
        const fromLexer = tokens.flatMap((t) => (t.kind === 'column' ? [[t.start, t.end, t.key]] : []));
        expect(columnReferences(text).map((r) => [r.start, r.end, r.name])).toEqual(fromLexer);
      }),
    );
  });

  it('round-trips any names: display then resolve gives the stored keys', () => {
    const name = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(
        fc.uniqueArray(name, {
          minLength: 1,
          maxLength: 5,
          comparator: (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase(),
        }),
        (names) => {
          const columns = names.map((displayName, i) => ({ columnKey: `k${i}`, displayName }));
          const stored = columns.map((c) => `[${c.columnKey}]`).join(' + ');
          const shown = formulaForDisplay(stored, columns);
          parseFormula(shown);
          expect(formulaNamesToKeys(shown, columns).text).toBe(stored);
        },
      ),
    );
  });
});
