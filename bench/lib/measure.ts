import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export interface PairTimes {
  api: number[];
  duckdb: number[];
}

/**
 * Runs both sides `warmups` times untimed, then `runs` times timed, alternating API and DuckDB so
 * drift (page cache, other load on the machine) falls on both alike.
 */
export async function timePair(
  counts: { warmups: number; runs: number },
  api: () => Promise<unknown>,
  duckdb: () => Promise<unknown>,
  /** Awaited, untimed, before each timed call: background work a call started (e.g. search indexing). */
  settle: () => Promise<unknown> = async () => undefined,
): Promise<PairTimes> {
  for (let i = 0; i < counts.warmups; i += 1) {
    await api();
    await duckdb();
  }
  const times: PairTimes = { api: [], duckdb: [] };
  for (let i = 0; i < counts.runs; i += 1) {
    await settle();
    times.api.push(await timed(api));
    await settle();
    times.duckdb.push(await timed(duckdb));
  }
  return times;
}

/**
 * Samples the process's resident memory every few milliseconds (DuckDB's work runs on other
 * threads, so the event loop stays free to sample) and keeps the peak of each named phase.
 */
export class MemorySampler {
  readonly peaks = new Map<string, number>();
  private current = 'start';
  private timer: NodeJS.Timeout | null = null;

  start(intervalMs = 10): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  phase(name: string): void {
    this.sample();
    this.current = name;
    this.sample();
  }

  stop(): void {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  peakOf(...phases: string[]): number {
    return Math.max(0, ...phases.map((p) => this.peaks.get(p) ?? 0));
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > (this.peaks.get(this.current) ?? 0)) this.peaks.set(this.current, rss);
  }
}

/** The kernel's high-water mark of this process's resident memory (Linux), or null elsewhere. */
export function kernelPeakRss(): number | null {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);

interface CpuSnapshot {
  at: number;
  machineBusy: number;
  own: number;
}

/** Seconds of CPU every core of the machine has spent busy since boot (Linux /proc/stat), or null. */
function machineBusySeconds(): number | null {
  try {
    const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields.map(Number);
    // In USER_HZ ticks, 100 a second on Linux.
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return null;
  }
}

/**
 * Measures how many cores other processes kept busy while a measurement ran: the machine's busy
 * CPU time minus this process's own (DuckDB's threads included), over the wall time.
 */
export function otherCpuWatch(): () => number | null {
  const snapshot = (): CpuSnapshot | null => {
    const machineBusy = machineBusySeconds();
    if (machineBusy === null) return null;
    const { user, system } = process.cpuUsage();
    return { at: performance.now() / 1000, machineBusy, own: (user + system) / 1e6 };
  };
  const start = snapshot();
  return () => {
    const end = snapshot();
    if (!start || !end || end.at - start.at <= 0) return null;
    const others = end.machineBusy - start.machineBusy - (end.own - start.own);
    return Math.max(0, Math.round((others / (end.at - start.at)) * 100) / 100);
  };
}
