/**
 * Fonts of a PDF report. pdfkit's built-in Helvetica writes only Latin-1 (WinAnsi) text, so a name in
 * Greek, Cyrillic or with a euro sign would come out garbled: DejaVu Sans (Debian's fonts-dejavu-core)
 * is embedded when the machine has it. Without it, Helvetica with every character it cannot write
 * shown as '?'.
 */
import fs from 'node:fs';

export interface PdfFonts {
  regular: string;
  bold: string;
  /** Text as the fonts can write it. */
  clean: (text: string) => string;
}

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

let found: boolean | undefined;

function hasDejaVu(): boolean {
  found ??= fs.existsSync(DEJAVU) && fs.existsSync(DEJAVU_BOLD);
  return found;
}

/** Characters Helvetica's WinAnsi encoding holds (Latin-1 and the few extras it maps). */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

// eslint-disable-next-line no-control-regex -- control characters never belong in a cell's printed text
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Line breaks and tabs: a cell is one line, where the grid shows each as a space. */
const BREAKS = /\r\n|[\t\n\r\f\u2028\u2029]/g;

const printable = (text: string) => text.replace(BREAKS, ' ').replace(CONTROL, '');

export function pdfFonts(): PdfFonts {
  if (hasDejaVu()) {
    return { regular: DEJAVU, bold: DEJAVU_BOLD, clean: printable };
  }
  return {
    regular: 'Helvetica',
    bold: 'Helvetica-Bold',
    clean: (text) =>
      [...printable(text)]
        .map((char) => (char.charCodeAt(0) < 256 || WIN_ANSI_EXTRA.includes(char) ? char : '?'))
        .join(''),
  };
}
