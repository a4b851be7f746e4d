import fs from 'node:fs';
import { parseJsonExact } from '../../../exact-values/json';

/** Records of a JSON lines file, every number exact, in batches. */
export async function* jsonLines(file: string, size: number): AsyncGenerator<Record<string, unknown>[]> {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let batch: Record<string, unknown>[] = [];
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const value = parseJsonExact(line);
    batch.push(
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { value },
    );
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
