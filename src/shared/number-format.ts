import type { ColumnFormat } from './models';

/**
 * A number as a formatted column shows it: multiplied first, then as a Number or a Percent (×100,
 * '%'), with or without thousand separators, a fixed number of decimals when set, and a prefix and
 * suffix. The locale decides the separators.
 */
export function formatNumber(value: number, format: ColumnFormat, locale?: string): string {
  const multiplied = format.multiplyBy === null ? value : value * format.multiplyBy;
  const shown = format.style === 'Percent' ? multiplied * 100 : multiplied;
  const digits =
    format.decimalPlaces === null
      ? { maximumFractionDigits: 10 }
      : { minimumFractionDigits: format.decimalPlaces, maximumFractionDigits: format.decimalPlaces };
  const text = shown.toLocaleString(locale, { useGrouping: format.thousandSeparator, ...digits });
  return `${format.prefix}${text}${format.style === 'Percent' ? '%' : ''}${format.suffix}`;
}
