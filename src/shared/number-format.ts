import type { ColumnFormat } from './models';
import { numberText } from './number-text';

/**
 * A number as a formatted column shows it: multiplied first, then as a Number or a Percent (×100,
 * '%'), with or without thousand separators, a fixed number of decimals when set, and a prefix and
 * suffix. The locale decides the separators. Without fixed decimals, every digit (number-text.ts).
 */
export function formatNumber(value: number, format: ColumnFormat, locale?: string): string {
  const multiplied = format.multiplyBy === null ? value : value * format.multiplyBy;
  const shown = format.style === 'Percent' ? multiplied * 100 : multiplied;
  const places = format.decimalPlaces;
  const text =
    places === null
      ? numberText(shown, locale, format.thousandSeparator)
      : shown.toLocaleString(locale, {
          useGrouping: format.thousandSeparator,
          minimumFractionDigits: places,
          maximumFractionDigits: places,
        });
  return `${format.prefix}${text}${format.style === 'Percent' ? '%' : ''}${format.suffix}`;
}
