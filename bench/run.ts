import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs every benchmark under bench/ (files named *.bench.ts), one process each so their memory
 * figures do not mix; each writes its JSON result under bench/results/.
 */
const dir = import.meta.dirname;
const benches = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

if (benches.length === 0) {
  console.log('No benchmarks yet: they arrive with the query engine.');
  process.exit(0);
}

fs.mkdirSync(path.join(dir, 'results'), { recursive: true });
let failed = 0;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, bench)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
