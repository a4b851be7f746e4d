/**
 * Tab-separated text as spreadsheets put it on the clipboard (Google Sheets, Excel): cells split by
 * tabs, rows by newlines; a cell holding a tab, a newline or a quote is written in double quotes
 * with its quotes doubled, so it survives the round trip.
 */

/** A cell's text as a TSV field: quoted only when it must be. */
function field(text: string): string {
  return /[\t\n\r"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as TSV; an empty cell (null or '') is an empty field. No newline after the last row. */
export function toTsv(rows: readonly (readonly (string | null)[])[]): string {
  return rows.map((row) => row.map((cell) => field(cell ?? '')).join('\t')).join('\n');
}

/**
 * Pasted text as rows of cells. A field that starts with a quote runs to the matching closing quote
 * (tabs and newlines inside belong to the cell, `""` is one quote); a quote anywhere else is text.
 * Windows and old Mac line ends count as newlines, and one newline at the very end (spreadsheets
 * add it) does not make an empty last row.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  const atSeparator = (j: number) => j >= n || text[j] === '\t' || text[j] === '\n' || text[j] === '\r';
  for (;;) {
    const quoted = text[i] === '"' ? readQuoted(text, i) : null;
    if (quoted && atSeparator(quoted.end)) {
      row.push(quoted.text);
      i = quoted.end;
    } else {
      // An unquoted field (or a quote that never closes at a separator): up to the next tab or line end.
      let j = i;
      while (!atSeparator(j)) j += 1;
      row.push(text.slice(i, j));
      i = j;
    }
    if (i >= n) break;
    if (text[i] === '\t') {
      i += 1;
      continue;
    }
    // A line end: \r\n, \n or \r.
    i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
    rows.push(row);
    row = [];
    if (i >= n) return rows;
  }
  rows.push(row);
  return rows;
}

/** The quoted field starting at `start` (a quote): its text and the index after its closing quote. */
function readQuoted(text: string, start: number): { text: string; end: number } | null {
  let out = '';
  let j = start + 1;
  while (j < text.length) {
    if (text[j] === '"') {
      if (text[j + 1] === '"') {
        out += '"';
        j += 2;
        continue;
      }
      return { text: out, end: j + 1 };
    }
    out += text[j];
    j += 1;
  }
  return null;
}
