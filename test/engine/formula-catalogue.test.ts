/**
 * The catalogue users see (src/shared/functions.ts) and the engine's whitelist must not drift:
 * same names, categories, argument counts (read from the signature) and result types, and every
 * example must compile.
 */
import { describe, expect, it } from 'vitest';
import { FORMULA_FUNCTION_TABLE, type FormulaScope } from '../../src/engine/formula';
import { FORMULA_FUNCTIONS } from '../../src/shared/functions';
import { COLUMN_TYPES, type ColumnType } from '../../src/shared/tables';
import { compile } from './formula-helpers';

/** Arity and result type as the signature writes them: `ROUND(number, digits?) → Number`. */
function readSignature(signature: string): { name: string; min: number; max: number; returns: string } {
  const match = /^([A-Z_]+)\((.*)\) → (.+)$/.exec(signature);
  if (!match) throw new Error(`Malformed signature ${signature}`);
  const params = match[2] === '' ? [] : match[2]!.split(', ');
  const variadic = params.at(-1) === '...';
  const named = variadic ? params.slice(0, -1) : params;
  return {
    name: match[1]!,
    min: named.filter((param) => !param.endsWith('?')).length,
    max: variadic ? Infinity : named.length,
    returns: match[3]!,
  };
}

const EXAMPLE_COLUMNS: Record<string, ColumnType> = {
  amount: 'Number',
  quantity: 'Number',
  discount: 'Number',
  name: 'Text',
  first_name: 'Text',
  last_name: 'Text',
  email: 'Text',
  city: 'Text',
  created_at: 'DateTime',
  birth_date: 'Date',
};

const exampleScope: FormulaScope = {
  resolve: (key) => {
    const type = EXAMPLE_COLUMNS[key];
    return type ? { expr: { kind: 'column', name: key }, type } : undefined;
  },
};

describe('formula function catalogue', () => {
  it('lists exactly the whitelisted functions, each once', () => {
    const names = FORMULA_FUNCTIONS.map((info) => info.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(FORMULA_FUNCTION_TABLE.map((fn) => fn.name).sort());
  });

  it.each(FORMULA_FUNCTIONS.map((info) => [info.name, info]))('%s matches the engine', (_name, info) => {
    const fn = FORMULA_FUNCTION_TABLE.find((candidate) => candidate.name === info.name)!;
    const signature = readSignature(info.signature);
    expect(signature.name).toBe(info.name);
    expect(info.category).toBe(fn.category);
    expect({ min: signature.min, max: signature.max }).toEqual({ min: fn.minArgs, max: fn.maxArgs });
    const fixedType = (COLUMN_TYPES as readonly string[]).includes(signature.returns);
    expect(fixedType ? signature.returns : 'varies').toBe(fn.returns);
    expect(info.description.length).toBeGreaterThan(10);
  });

  it.each(FORMULA_FUNCTIONS.map((info) => [info.example, info]))('example %s compiles and uses it', (example, info) => {
    expect(() => compile(example, exampleScope)).not.toThrow();
    expect(example.toUpperCase()).toContain(`${info.name}(`);
  });
});
