const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A file size in B, KB, MB or GB (powers of 1024) with up to 2 decimals: 512 B, 1.5 KB, 12.34 MB.
 * Past GB it stays in GB (2048 GB), as the spec names no larger unit.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  let rounded = Math.round(value * 100) / 100;
  // 1023.999 KB rounds to 1024 KB: that is 1 MB.
  if (rounded >= 1024 && unit < UNITS.length - 1) {
    unit += 1;
    rounded = Math.round((value / 1024) * 100) / 100;
  }
  return `${rounded.toLocaleString('en-US', { maximumFractionDigits: 2, useGrouping: false })} ${UNITS[unit]}`;
}
