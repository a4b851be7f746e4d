import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { parseJsonExact } from './json';

/**
 * Records of a JSON lines file, every number exact, in batches of `size` (a line that is not an
 * object is `{ value }`). Leaving early (a sample of the first batch) closes the reader.
 */
export async function* jsonLines(file: string, size: number): AsyncGenerator<Record<string, unknown>[]> {
  const lines = createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  try {
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
  } finally {
    lines.close();
  }
}
