/** SQL pieces the question sets (shop, desk) write their expected rows with, in DuckDB's dialect. */

/** A date column as its month, 'YYYY-MM'. */
export const month = (col: string) => `strftime(${col}, '%Y-%m')`;

/** A date column as its quarter, 'YYYY-Qn'. */
export const quarter = (col: string) => `strftime(${col}, '%Y') || '-Q' || quarter(${col})`;

/** From `from` to the whole of the day `to`, both 'YYYY-MM-DD'. */
export const range = (col: string, from: string, to: string) =>
  `${col} >= DATE '${from}' AND ${col} < DATE '${to}' + INTERVAL 1 DAY`;
