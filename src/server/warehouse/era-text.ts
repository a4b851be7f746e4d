/**
 * A date or date-time as a database prints it, era included: PostgreSQL writes `0044-03-15 BC`
 * (and `… 10:00:00+00 BC`), which DuckDB would read as the year 44 AD, silently. SQL respelling
 * such a value (the text `ref`) with ISO 8601's astronomical year (1 BC is 0000, 44 BC is -0043),
 * which DuckDB reads exactly; every other value stays as it is (a suffix test, cheap on any column).
 */
export function eraText(ref: string): string {
  const year = `CAST(split_part(${ref}, '-', 1) AS INTEGER)`;
  const astronomical = `CASE WHEN ${year} = 1 THEN '0000' ELSE '-' || lpad(CAST(${year} - 1 AS VARCHAR), 4, '0') END`;
  const rest = `substr(${ref}, strpos(${ref}, '-'), length(${ref}) - strpos(${ref}, '-') - 2)`;
  return `CASE WHEN suffix(${ref}, ' BC') THEN ${astronomical} || ${rest} ELSE ${ref} END`;
}
