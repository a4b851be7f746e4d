import { describe, expect, it } from 'vitest';
import type { ColumnFormat } from '../../src/shared/models';
import { formatNumber } from '../../src/shared/number-format';

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
