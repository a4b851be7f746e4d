import { useEffect, useRef, type RefObject } from 'react';
import { cellsOf, type CellRange } from './range';
import { toTsv } from './tsv';
import type { CellPosition } from './types';

interface ClipboardOptions {
  scroller: RefObject<HTMLDivElement | null>;
  range: CellRange | null;
  valueAt: (p: CellPosition) => unknown;
  /** Absent in read-only grids: pasting does nothing there. */
  onPaste?: (text: string) => void;
}

/** A value as spreadsheets read it back: raw (unformatted) text, JSON for lists and objects. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The range's values as TSV. */
export function rangeTsv(range: CellRange, valueAt: (p: CellPosition) => unknown): string {
  const rows: string[][] = [];
  for (const p of cellsOf(range)) {
    const line = (rows[p.rowIndex - range.top] ??= []);
    line.push(copyText(valueAt(p)));
  }
  return toTsv(rows);
}

/**
 * Copy and paste of the grid while it holds the focus. Ctrl/Cmd+C writes the range as TSV with the
 * Clipboard API; where that is missing (a page not served over https) or refused, the browser's
 * copy event, which the keystroke fires anyway, carries the same text. Paste reads the text of the
 * paste event. Both listen on the document: a grid that is not a text field is not the target of
 * clipboard events.
 */
export function useGridClipboard(options: ClipboardOptions) {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    // The grid itself holds the focus: while a cell is edited, its text box does, and takes the
    // clipboard's events as any text box.
    const inGrid = () =>
      !!latest.current.scroller.current && document.activeElement === latest.current.scroller.current;
    const onCopy = (event: ClipboardEvent) => {
      const { range, valueAt } = latest.current;
      if (!inGrid() || !range || !event.clipboardData) return;
      event.clipboardData.setData('text/plain', rangeTsv(range, valueAt));
      event.preventDefault();
    };
    const onPaste = (event: ClipboardEvent) => {
      const { onPaste: paste } = latest.current;
      if (!inGrid() || !paste || !event.clipboardData) return;
      event.preventDefault();
      paste(event.clipboardData.getData('text/plain'));
    };
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, []);

  /** Ctrl/Cmd+C: the range to the clipboard by the Clipboard API (the copy event is the fallback). */
  const copy = () => {
    const { range, valueAt } = latest.current;
    if (!range || !navigator.clipboard?.writeText) return;
    navigator.clipboard.writeText(rangeTsv(range, valueAt)).catch(() => undefined);
  };
  return { copy };
}
