/**
 * A number shown without a fixed number of decimals: the digits of its shortest exact text (those of
 * `String(n)`, which the API's JSON and the exports write too), laid out in the locale (thousands
 * grouped, its decimal separator and digits). `toLocaleString` would round past 20 decimals (1e-300
 * reads `0`) and print the binary value's digits (`…568` for a number whose shortest text ends
 * `…567`). A number past 1e21, or below 1e-20, keeps its exponent (`1e-300`, `1e+300`).
 * -0 is 0, as the data call answers it. The grid, the API's display values, reports and chat all
 * read numbers this way, so a copied or exported value is the one on screen.
 */

/**
 * A number's shortest exact digits (those of `String(n)`) as plain decimal text, never in exponent
 * form: 1e-7 reads `0.0000001` and 1e21 `1000000000000000000000`.
 */
export function plainNumber(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponent] = match;
  const digits = `${first}${rest}`;
  // The decimal point sits after `point` digits (negative: that many zeros before the digits).
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits}${'0'.repeat(Math.max(0, point - digits.length))}`;
}

/** Past these exponents a number keeps its exponent form rather than a run of zeros (1e-20 and 1e21 are plain). */
const PLAIN_EXPONENTS = { min: -20, max: 21 };

interface LocaleParts {
  minus: string;
  decimal: string;
  digits: string[];
}

const partsByLocale = new Map<string, LocaleParts>();

function localeParts(locale: string | undefined): LocaleParts {
  const key = locale ?? '';
  let parts = partsByLocale.get(key);
  if (!parts) {
    const format = new Intl.NumberFormat(locale, { useGrouping: false });
    const of = (n: number, type: Intl.NumberFormatPartTypes, fallback: string) =>
      format.formatToParts(n).find((p) => p.type === type)?.value ?? fallback;
    parts = {
      minus: of(-1, 'minusSign', '-'),
      decimal: of(1.5, 'decimal', '.'),
      digits: Array.from({ length: 10 }, (_, d) => format.format(d)),
    };
    partsByLocale.set(key, parts);
  }
  return parts;
}

export function numberText(value: number, locale?: string, useGrouping = true): string {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  const shortest = String(value);
  const exponent = /e([+-]\d+)$/.exec(shortest)?.[1];
  const power = exponent === undefined ? 0 : Number(exponent);
  if (power < PLAIN_EXPONENTS.min || power > PLAIN_EXPONENTS.max) return shortest;
  const [, sign = '', whole = '0', fraction] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plainNumber(value)) ?? [];
  const parts = localeParts(locale);
  const wholeText = BigInt(whole).toLocaleString(locale, { useGrouping });
  const fractionText =
    fraction === undefined ? '' : `${parts.decimal}${[...fraction].map((d) => parts.digits[Number(d)]).join('')}`;
  return `${sign ? parts.minus : ''}${wholeText}${fractionText}`;
}
