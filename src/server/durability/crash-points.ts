/**
 * Named points at which the crash suite (test/crash/) has the server kill itself with SIGKILL, so a
 * kill lands exactly between two steps of a write instead of wherever a timer happens to fall.
 * `WORKSPACE_CRASH_AT=<name>` kills at the first pass of that point, `<name>#<n>` at the n-th.
 * Unset (always, outside that suite), a point costs one comparison.
 */
const wanted = parse(process.env.WORKSPACE_CRASH_AT);
let passes = 0;

function parse(text: string | undefined): { name: string; pass: number } | null {
  if (!text) return null;
  const [name = '', pass = '1'] = text.split('#');
  return { name, pass: Math.max(1, Number(pass) || 1) };
}

export function crashPoint(name: string): void {
  if (wanted === null || wanted.name !== name) return;
  passes += 1;
  if (passes === wanted.pass) process.kill(process.pid, 'SIGKILL');
}
