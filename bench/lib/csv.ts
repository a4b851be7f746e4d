import fs from 'node:fs';
import { once } from 'node:events';

const CITIES = ['Berlin', 'Paris', 'Lisbon', 'Oslo', 'Rome', 'Vienna', 'Dublin', 'Prague'];
const LINES_PER_WRITE = 10_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * Writes a CSV of `rows` deterministic rows with a header and mixed types: text (some quoted, with a
 * comma), a decimal number, an integer, a date, a timestamp and a boolean, with a few empty cells.
 * Returns the file's size in bytes.
 */
export async function writeMixedCsv(filePath: string, rows: number): Promise<number> {
  const out = fs.createWriteStream(filePath);
  const day0 = Date.UTC(2000, 0, 1);
  const time0 = Date.UTC(2020, 0, 1);
  let lines: string[] = ['name,amount,quantity,day,at,active'];
  for (let i = 0; i < rows; i += 1) {
    const city = CITIES[i % CITIES.length] as string;
    const name =
      i % 10 === 0 ? `"${city}, customer ${(i * 7919) % 1_000_003}"` : `Customer ${(i * 7919) % 1_000_003} ${city}`;
    const amount = i % 97 === 0 ? '' : (((i * 2_654_435_761) % 1_000_000_007) / 1000).toFixed(2);
    const quantity = ((i * 48_271) % 2_147_483_647) - 1_073_741_823;
    const day = new Date(day0 + ((i * 31) % 9131) * 86_400_000);
    const at = new Date(time0 + ((i * 7907) % 157_680_000) * 1000);
    const dayText = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
    const atText =
      `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ` +
      `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
    const active = i % 101 === 0 ? '' : String(i % 3 === 0);
    lines.push(`${name},${amount},${quantity},${dayText},${atText},${active}`);
    if (lines.length >= LINES_PER_WRITE) {
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
      lines = [];
    }
  }
  if (lines.length > 0) out.write(`${lines.join('\n')}\n`);
  out.end();
  await once(out, 'finish');
  return fs.statSync(filePath).size;
}
