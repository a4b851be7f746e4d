import { describe, expect, it } from 'vitest';
import { parseDateTimeValue, parseDateValue } from '../../src/engine/values/dates';

describe('parseDateValue', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    [' 2000-02-29 ', '2000-02-29'],
    ['0001-01-01', '0001-01-01'],
    ['2024-03-01T00:00:00+01:00', '2024-03-01'],
    ['2024-03-01T23:30:00-05:00', '2024-03-01'],
    ['2024-03-01 08:00', '2024-03-01'],
  ])('reads %j as %s', (text, date) => {
    expect(parseDateValue(text)).toBe(date);
  });

  it.each([
    '',
    '2023-02-29',
    '1900-02-29',
    '2024-13-01',
    '2024-04-31',
    '24-01-01',
    '2024/01/01',
    'today',
    '2024-01-01T24:00',
  ])('refuses %j', (text) => {
    expect(parseDateValue(text)).toBeNull();
  });
});

describe('parseDateTimeValue', () => {
  it.each([
    ['2024-03-01T10:00:00Z', '2024-03-01 10:00:00'],
    ['2024-03-01t10:00z', '2024-03-01 10:00:00'],
    ['2024-03-01 10:00:00', '2024-03-01 10:00:00'],
    ['2024-03-01T11:00:00+01:00', '2024-03-01 10:00:00'],
    ['2024-03-01T00:30:00+0100', '2024-02-29 23:30:00'],
    ['2024-12-31T22:00:00-05', '2025-01-01 03:00:00'],
    ['2024-03-01T10:00:00.5Z', '2024-03-01 10:00:00.5'],
    ['2024-03-01T10:00:00,123456000Z', '2024-03-01 10:00:00.123456'],
    ['0050-06-01T00:00:00Z', '0050-06-01 00:00:00'],
  ])('reads %j as the instant %s', (text, timestamp) => {
    expect(parseDateTimeValue(text)).toEqual({ kind: 'instant', timestamp });
  });

  it.each([
    ['2024-03-01T10:00:00,123456789Z', 6, { kind: 'gap', ceiling: '2024-03-01 10:00:00.123457' }],
    ['2024-03-01T10:00:00.123456789Z', 9, { kind: 'instant', timestamp: '2024-03-01 10:00:00.123456789' }],
    ['2024-03-01T10:00:00.9999995Z', 6, { kind: 'gap', ceiling: '2024-03-01 10:00:01' }],
    ['2024-12-31T23:59:59.9999999-00:00', 6, { kind: 'gap', ceiling: '2025-01-01 00:00:00' }],
    ['2024-03-01T10:00:00.5Z', 0, { kind: 'gap', ceiling: '2024-03-01 10:00:01' }],
    ['2024-03-01T10:00:00.1204Z', 3, { kind: 'gap', ceiling: '2024-03-01 10:00:00.121' }],
  ])(
    'reads %j, finer than a column of %i digits after the second holds, as the gap before its next value',
    (text, digits, value) => {
      expect(parseDateTimeValue(text, digits)).toEqual(value);
    },
  );

  it('reads a date alone as the whole UTC day', () => {
    expect(parseDateTimeValue('2024-02-28')).toEqual({
      kind: 'day',
      start: '2024-02-28 00:00:00',
      end: '2024-02-29 00:00:00',
    });
    expect(parseDateTimeValue('2023-12-31')).toEqual({
      kind: 'day',
      start: '2023-12-31 00:00:00',
      end: '2024-01-01 00:00:00',
    });
  });

  it.each([
    '2024-03-01T10:60Z',
    '2024-03-01T10:00:60Z',
    '2024-03-01T10:00+24:00',
    '2024-03-01T10:00+01:60',
    '2024-03-01T10',
    '2024-03-01Z',
    '+275760-01-01',
    '-271821-01-01T00:00:00Z',
    '10000-01-01',
    '+1000-01-01',
    'now',
  ])('refuses %j', (text) => {
    expect(parseDateTimeValue(text)).toBeNull();
  });

  it('reads the years before 0001 and after 9999 as the grid writes them, in ISO years', () => {
    expect(parseDateValue('-000043-03-15')).toBe('-0043-03-15');
    expect(parseDateValue('-0043-03-15')).toBe('-0043-03-15');
    expect(parseDateValue('0000-02-29')).toBe('0000-02-29');
    expect(parseDateValue('+010000-01-01')).toBe('10000-01-01');
    expect(parseDateTimeValue('-000043-03-15T10:00:00.500Z')).toEqual({
      kind: 'instant',
      timestamp: '-0043-03-15 10:00:00.5',
    });
    expect(parseDateTimeValue('0001-01-01T00:00:00+01:00')).toEqual({
      kind: 'instant',
      timestamp: '0000-12-31 23:00:00',
    });
    expect(parseDateTimeValue('9999-12-31')).toEqual({
      kind: 'day',
      start: '9999-12-31 00:00:00',
      end: '10000-01-01 00:00:00',
    });
  });
});
