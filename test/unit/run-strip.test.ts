import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/integrations';
import { runStrip } from '../../src/shared/run-strip';

const run = (n: number, status: Run['status'] = 'Completed'): Run => ({
  id: `r${n}`,
  status,
  kind: 'Sync',
  createdAt: `2026-01-0${n}T00:00:00.000Z`,
  startedAt: null,
  endedAt: null,
  recordsProcessed: 0,
  bytesProcessed: 0,
});
const shape = (slots: ReturnType<typeof runStrip>) =>
  slots.map((s) => (s.kind === 'run' ? s.run.id : s.kind === 'next' ? `next ${s.at}` : '-'));

describe('runStrip', () => {
  it('pads to five slots with the oldest run on the left', () => {
    expect(shape(runStrip([run(2), run(1)], null))).toEqual(['-', '-', '-', 'r1', 'r2']);
  });

  it('keeps the five newest runs', () => {
    const runs = [1, 2, 3, 4, 5, 6, 7].map((n) => run(n));
    expect(shape(runStrip(runs, null))).toEqual(['r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it('gives the oldest slot to the next scheduled run unless one is running', () => {
    const runs = [1, 2, 3, 4, 5].map((n) => run(n));
    expect(shape(runStrip(runs, '2026-02-01T00:00:00.000Z'))).toEqual([
      'r2',
      'r3',
      'r4',
      'r5',
      'next 2026-02-01T00:00:00.000Z',
    ]);
    const busy = [...runs.slice(0, 4), run(5, 'Running')];
    expect(shape(runStrip(busy, '2026-02-01T00:00:00.000Z'))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });
});
