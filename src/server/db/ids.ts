import { randomUUID } from 'node:crypto';

export function newId(): string {
  return randomUUID();
}

export function addMinutes(date: Date, minutes: number): string {
  return new Date(date.getTime() + minutes * 60_000).toISOString();
}
