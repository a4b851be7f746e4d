import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnFormat } from '../../src/shared/models';
import { formatNumber } from '../../src/shared/number-format';
import { numberText } from '../../src/shared/number-text';

const base: ColumnFormat = {
  multiplyBy: null,
  style: 'Number',
  thousandSeparator: true,
  decimalPlaces: null,
  prefix: '',
  suffix: '',
};

describe('formatNumber', () => {
  it('groups thousands, fixes decimals and adds a prefix and suffix', () => {
    expect(formatNumber(1234567.891, base, 'en-US')).toBe('1,234,567.891');
    expect(formatNumber(1234567.891, { ...base, thousandSeparator: false, decimalPlaces: 1 }, 'en-US')).toBe(
      '1234567.9',
    );
    expect(formatNumber(12, { ...base, decimalPlaces: 2, prefix: '€ ', suffix: ' net' }, 'en-US')).toBe('€ 12.00 net');
  });

  it('multiplies first and shows percentages', () => {
    expect(formatNumber(0.256, { ...base, style: 'Percent', decimalPlaces: 1 }, 'en-US')).toBe('25.6%');
    expect(formatNumber(3, { ...base, multiplyBy: 1000 }, 'en-US')).toBe('3,000');
    expect(formatNumber(-0.5, { ...base, style: 'Percent', decimalPlaces: 0 }, 'en-US')).toBe('-50%');
  });
});

describe('numbers without fixed decimals', () => {
  it('keep the digits of their shortest text, laid out in the locale', () => {
    expect(numberText(1234567.125, 'en-US')).toBe('1,234,567.125');
    expect(numberText(1234567.125, 'de-DE')).toBe('1.234.567,125');
    expect(numberText(-1234567.125, 'en-IN')).toBe('-12,34,567.125');
    expect(numberText(-0.5, 'sv-SE')).toBe('\u22120,5');
    expect(numberText(0.30000000000000004, 'en-US')).toBe('0.30000000000000004');
    // Every digit of the shortest text, as the API's JSON and the exports write them (toLocaleString
    // stops at 20 decimals: 0.00001234567890123457 and 0.00000000000000000087).
    expect(numberText(0.000012345678901234568, 'en-US')).toBe('0.000012345678901234568');
    expect(numberText(2 ** -60, 'en-US')).toBe('0.0000000000000000008673617379884035');
    expect(numberText(1e-7, 'en-US')).toBe('0.0000001');
    expect(numberText(1e-300, 'en-US')).toBe('1e-300');
    expect(numberText(-1e300, 'en-US')).toBe('-1e+300');
    expect(numberText(1e21, 'en-US')).toBe('1,000,000,000,000,000,000,000');
    expect(numberText(2 ** 70, 'en-US')).toBe('1,180,591,620,717,411,300,000');
    expect(numberText(-0, 'en-US')).toBe('0');
    expect(numberText(123456.5, 'en-US', false)).toBe('123456.5');
    expect(numberText(12.5, 'ar-EG')).toBe((12.5).toLocaleString('ar-EG'));
    expect(numberText(Number.NaN, 'en-US')).toBe('NaN');
  });

  it('read back as the same number, whatever the number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = numberText(n, 'en-US');
        expect(Number(text.replaceAll(',', ''))).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 2000 },
    );
  });

  it('are how a format without decimal places shows them', () => {
    expect(formatNumber(1.23456789012345, base, 'en-US')).toBe('1.23456789012345');
    expect(formatNumber(1e-300, { ...base, prefix: '$' }, 'en-US')).toBe('$1e-300');
  });
});
