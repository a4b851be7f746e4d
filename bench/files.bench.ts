/**
 * Public download of a 200 MB report through the real server (the public link's address, checked
 * and counted like any download) against streaming the same file from disk with a bare Node `http`
 * server, in the same run, rounds alternating so machine load falls on both alike. The client is
 * curl in its own process (nothing of it lands in the server's memory figures). Target: the
 * server's throughput at least 0.8x the bare server's; its memory constant during the download
 * (RSS and heap sampled every 20 ms, compared with before).
 *
 * Writes bench/results/hubs-files.json under `download` (the `fanout` key belongs to the hubs bench).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from './lib/server';

const SIZE_MB = Number(process.env.BENCH_FILE_MB ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MB = 1024 * 1024;
const run = promisify(execFile);

interface Sample {
  rss: number;
  heapUsed: number;
}

function memory(): Sample {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

/** Downloads url with curl to /dev/null; answers bytes and seconds, while sampling this process's memory. */
async function download(url: string, samples: Sample[]): Promise<{ bytes: number; seconds: number }> {
  const timer = setInterval(() => samples.push(memory()), 20);
  try {
    const { stdout } = await run('curl', ['-s', '-f', '-o', '/dev/null', '-w', '%{size_download} %{time_total}', url]);
    const [bytes, seconds] = stdout.trim().split(' ').map(Number);
    return { bytes: bytes ?? 0, seconds: seconds ?? 0 };
  } finally {
    clearInterval(timer);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  const server = await startServer(dataDir, {});
  let bare: http.Server | undefined;
  try {
    const files = server.app.services.files;
    const { id } = await files.createReport({
      accountId: server.accountId,
      userId: null,
      name: 'Big report.bin',
      contentType: 'application/octet-stream',
      originEntityType: 'Automation',
      originEntityTypeId: null,
    });
    const chunk = randomBytes(MB);
    async function* contents() {
      for (let i = 0; i < SIZE_MB; i++) yield chunk;
    }
    await files.completeReport(id, contents());
    const ctx = {
      user: await server.app.deps.db.selectFrom('users').selectAll().executeTakeFirstOrThrow(),
      accountId: server.accountId,
      roles: ['owner'],
    };
    const link = await files.share(ctx, id, { expiresAt: null });
    const token = new URL(link.downloadUrl).pathname.split('/').pop()!;
    const appUrl = `${server.baseUrl}/api/public/files/shared/${token}/download`;

    // The same file, streamed by the plainest Node server there is.
    const blob = path.join(dataDir, 'files', id);
    const size = fs.statSync(blob).size;
    bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      fs.createReadStream(blob).pipe(res);
    });
    await new Promise<void>((resolve) => bare!.listen(0, '127.0.0.1', resolve));
    const bareAddress = bare.address();
    if (!bareAddress || typeof bareAddress === 'string') throw new Error('No address');
    const bareUrl = `http://127.0.0.1:${bareAddress.port}/`;

    // Warm both (file cache, JIT), unmeasured.
    await download(appUrl, []);
    await download(bareUrl, []);
    global.gc?.();
    const before = memory();

    const appSamples: Sample[] = [];
    const appRates: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await download(appUrl, appSamples);
      const b = await download(bareUrl, []);
      if (a.bytes !== size || b.bytes !== size) throw new Error(`Short download: ${a.bytes}, ${b.bytes} of ${size}`);
      appRates.push(size / MB / a.seconds);
      bareRates.push(size / MB / b.seconds);
      console.log(
        `round ${round + 1}: server ${appRates.at(-1)!.toFixed(0)} MB/s, bare ${bareRates.at(-1)!.toFixed(0)} MB/s`,
      );
    }
    const peakRss = Math.max(...appSamples.map((s) => s.rss));
    const peakHeap = Math.max(...appSamples.map((s) => s.heapUsed));
    const ratio = median(appRates) / median(bareRates);
    const counted = await files.shared(ctx, id);

    const result = {
      fileMb: mb(size),
      rounds: ROUNDS,
      serverMBps: Math.round(median(appRates)),
      bareNodeMBps: Math.round(median(bareRates)),
      ratio: Math.round(ratio * 100) / 100,
      target: '>= 0.8',
      meetsTarget: ratio >= 0.8,
      memory: {
        rssBeforeMb: mb(before.rss),
        rssPeakDuringMb: mb(peakRss),
        rssGrowthMb: mb(peakRss - before.rss),
        heapBeforeMb: mb(before.heapUsed),
        heapPeakDuringMb: mb(peakHeap),
        heapGrowthMb: mb(peakHeap - before.heapUsed),
        samples: appSamples.length,
      },
      downloadsCounted: counted.downloadCount,
      measuredAt: new Date().toISOString(),
    };
    console.log(JSON.stringify(result, null, 2));

    const out = path.join(import.meta.dirname, 'results', 'hubs-files.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    // Read, modify, write: the hubs bench keeps its `fanout` key in the same file.
    const existing = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
    fs.writeFileSync(out, `${JSON.stringify({ ...existing, download: result }, null, 2)}\n`);
  } finally {
    await new Promise((resolve) => (bare ? bare.close(resolve) : resolve(undefined)));
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
