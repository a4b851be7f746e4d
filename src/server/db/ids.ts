import { randomUUID } from 'node:crypto';

export function newId(): string {
  return randomUUID();
}

export function addMinutes(date: Date, minutes: number): string {
  return new Date(date.getTime() + minutes * 60_000).toISOString();
}

let lastTimeOrderedMs = 0;
let timeOrderedCounter = 0;

/**
 * A UUID (version 7 layout) that sorts in creation order: 48 bits of wall-clock milliseconds, then
 * a counter within the millisecond, then random bits. For rows listed newest first whose
 * timestamps may tie (a clock that does not move, two runs in one millisecond).
 */
export function newTimeOrderedId(): string {
  const now = Date.now();
  if (now > lastTimeOrderedMs) {
    lastTimeOrderedMs = now;
    timeOrderedCounter = 0;
  } else {
    timeOrderedCounter += 1;
  }
  const time = lastTimeOrderedMs.toString(16).padStart(12, '0');
  const counter = (0x7000 | (timeOrderedCounter & 0x0fff)).toString(16);
  const random = randomUUID().replaceAll('-', '').slice(16);
  const variant = ((parseInt(random.slice(0, 1), 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-${counter}-${variant}${random.slice(1, 4)}-${random.slice(4, 16)}`;
}
