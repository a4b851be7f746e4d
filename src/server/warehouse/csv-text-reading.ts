/** How a CSV column read as text is stored (csv-numbers.ts, csv-times.ts). */
export interface TextReading {
  /** The DuckDB type stored. */
  sqlType: string;
  /** SQL making the stored value of the column's text (the column given quoted). */
  expression: (column: string) => string;
  /** What the user is told, when the column stays Text. */
  note: string | null;
}

/** Stored as `sqlType`, by DuckDB's cast of the text. */
export const castTo = (sqlType: string): TextReading => ({
  sqlType,
  expression: (c) => `CAST(${c} AS ${sqlType})`,
  note: null,
});

/** Kept as Text, every value as written. */
export const asText: TextReading = { sqlType: 'VARCHAR', expression: (c) => c, note: null };
