import type { ReadItem } from './connectors/types';

/**
 * Reads a connector one item ahead: while the runner loads a file (or a batch) into DuckDB, the
 * connector already fetches the next one, so source and warehouse work overlap instead of taking
 * turns. Record batches are copied before the connector resumes, since it may reuse its arrays.
 */
export async function* readAhead(source: AsyncIterable<ReadItem>): AsyncGenerator<ReadItem> {
  const iterator = source[Symbol.asyncIterator]();
  let pending = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const result = await pending;
      if (result.done) {
        finished = true;
        return;
      }
      const item: ReadItem =
        result.value.kind === 'records' ? { kind: 'records', records: [...result.value.records] } : result.value;
      pending = iterator.next();
      // Its failure is met when awaited in the next round; until then it must not count as unhandled.
      pending.catch(() => undefined);
      yield item;
    }
  } finally {
    // The runner stopped early (an error, a cancel): let the connector close its connections.
    if (!finished) void iterator.return?.(undefined)?.catch(() => undefined);
  }
}
