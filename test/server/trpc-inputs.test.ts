/**
 * Every tRPC procedure's input is a schema exported from src/shared (the one the client's types come
 * from and the REST paths parse), not an ad-hoc or untyped one: the procedures are read from the
 * router itself, so a procedure added later is covered too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../../src/server/trpc/app-router';

const SHARED = path.join(import.meta.dirname, '../../src/shared');

async function sharedSchemas(): Promise<Map<unknown, string>> {
  const schemas = new Map<unknown, string>();
  for (const file of fs.readdirSync(SHARED).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(path.join(SHARED, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (value instanceof z.ZodType) schemas.set(value, `${file}:${name}`);
    }
  }
  return schemas;
}

/** Whether a schema lets anything through at its top or in an object's fields (z.unknown(), z.any()). */
function untyped(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return ['(input)'];
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    let inner: z.ZodType = field;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) {
      inner = inner.unwrap() as z.ZodType;
    }
    const isArrayOfUnknown = inner instanceof z.ZodArray && (inner.element as z.ZodType) instanceof z.ZodUnknown;
    return inner instanceof z.ZodUnknown || inner instanceof z.ZodAny || isArrayOfUnknown ? [key] : [];
  });
}

describe('tRPC inputs', () => {
  it('are schemas of src/shared, with no field left untyped', async () => {
    const schemas = await sharedSchemas();
    // tRPC's own record of the procedures; only their input parsers are read.
    const all = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: unknown[] } }>;
    const procedures = Object.entries(all);
    expect(procedures.length).toBeGreaterThan(60);
    const withInput = procedures.filter(([, p]) => p._def.inputs.length > 0);
    expect(withInput.length).toBeGreaterThan(50);
    for (const [name, procedure] of withInput) {
      for (const input of procedure._def.inputs) {
        expect(schemas.has(input), `${name}'s input is not a schema exported from src/shared`).toBe(true);
        expect(untyped(input as z.ZodType), `${name} (${schemas.get(input)}) has untyped fields`).toEqual([]);
      }
    }
  });
});
