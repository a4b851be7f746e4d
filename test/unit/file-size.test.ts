import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../src/shared/file-size';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [12.345 * 1024 * 1024, '12.35 MB'],
    [200 * 1024 * 1024, '200 MB'],
    [1024 ** 3 * 2.5, '2.5 GB'],
    [1024 ** 4, '1024 GB'],
    [-5, '0 B'],
    [Number.NaN, '0 B'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});
