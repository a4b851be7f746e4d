/**
 * A PDF report: a title, what it was made from and when, the chart for a pivot or a chart (drawn,
 * pdf-chart.ts), then the table on as many landscape pages as it needs, its header repeated on each,
 * columns fitted to their text, numbers right-aligned. Rows come in chunks and each finished page
 * leaves pdfkit at once, so memory stays flat; at most `maxRows` rows are written, and a capped table
 * says so after its last row.
 */
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { ChartData } from '../../../shared/chart-data';
import type { ChartType } from '../../../shared/charts';
import { REPORT_MESSAGES } from '../../../shared/reports';
import { drawChart } from './pdf-chart';
import { pdfFonts, type PdfFonts } from './pdf-fonts';
import type { ReportTable } from './report-table';

type Doc = InstanceType<typeof PDFDocument>;

export interface PdfReportInput {
  title: string;
  /** What the report was made from, e.g. "Model Sales (published version), filtered". */
  source: string;
  generatedAt: Date;
  chart: { data: ChartData; type: ChartType } | null;
  table: ReportTable;
  maxRows: number;
  /** Called after each chunk of rows with how many are written. */
  onRows?: (written: number) => void;
}

const MARGIN = 36;
const FONT_SIZE = 8;
const ROW_HEIGHT = 14;
const HEADER_HEIGHT = 18;
const CELL_PAD = 4;
const MIN_WIDTH = 36;
const MAX_WIDTH = 240;
const CHART_HEIGHT = 250;
/** Rows measured to fit the columns: the first chunk's, as a person would size them by eye. */
const SAMPLE_ROWS = 200;
/** pdfkit pushes pages without waiting for the reader: past this much unread, drawing waits. */
const UNREAD_LIMIT = 4 * 1024 * 1024;

/** The PDF as a byte stream; drawing runs as the stream is read, and an error ends the stream with it. */
export function pdfReport(input: PdfReportInput): Readable {
  const fonts = pdfFonts();
  const doc: Doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    // The bottom margin is small so the page number below the table never starts a new page.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 16 },
    info: { Title: fonts.clean(input.title), Creator: 'Workspace reports' },
    bufferPages: false,
  });
  void draw(doc, fonts, input).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}

async function unread(doc: Doc): Promise<void> {
  while (doc.readableLength > UNREAD_LIMIT && !doc.destroyed) await new Promise((resolve) => setTimeout(resolve, 10));
  // Lets the reader run between chunks even when it keeps up.
  await new Promise((resolve) => setImmediate(resolve));
}

/** `text` cut with an ellipsis to fit `width` in the current font. */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${text.slice(0, low)}…`;
}

/** Each column as wide as its header and sampled cells need, the widest narrowed to fit the page. */
export function fitWidths(natural: number[], available: number): number[] {
  const widths = natural.map((w) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w)));
  const total = widths.reduce((a, b) => a + b, 0);
  // Room to spare widens every column a little (up to half again): later rows may be longer than
  // the sampled ones.
  if (total <= available) return widths.map((w) => Math.min(MAX_WIDTH, w * Math.min(1.5, available / total)));
  if (MIN_WIDTH * widths.length >= available) return widths.map(() => available / widths.length);
  // The largest cap that fits: every column wider than it is narrowed to it.
  const sorted = [...widths].sort((a, b) => a - b);
  let rest = available;
  for (let i = 0; i < sorted.length; i++) {
    const cap = rest / (sorted.length - i);
    if (sorted[i]! >= cap) return widths.map((w) => Math.min(w, cap));
    rest -= sorted[i]!;
  }
  return widths;
}

async function draw(doc: Doc, fonts: PdfFonts, input: PdfReportInput): Promise<void> {
  const { table } = input;
  const pageWidth = doc.page.width - MARGIN * 2;
  const bottom = doc.page.height - MARGIN;
  let page = 1;
  const footer = () => {
    doc
      .font(fonts.regular)
      .fontSize(7)
      .fillColor('#868e96')
      .text(`${fonts.clean(input.title)} · page ${page}`, MARGIN, doc.page.height - 28, {
        width: pageWidth,
        align: 'right',
        lineBreak: false,
      });
  };

  doc.font(fonts.bold).fontSize(16).fillColor('#212529').text(fonts.clean(input.title), MARGIN, MARGIN, {
    width: pageWidth,
    lineBreak: false,
  });
  const stamp = input.generatedAt.toISOString().replace('T', ' ').slice(0, 16);
  doc
    .font(fonts.regular)
    .fontSize(9)
    .fillColor('#495057')
    .text(`${fonts.clean(input.source)} · generated ${stamp} UTC`, MARGIN, MARGIN + 22, {
      width: pageWidth,
      lineBreak: false,
    });
  let y = MARGIN + 42;
  footer();
  if (input.chart && input.chart.data.records.length > 0 && input.chart.data.series.length > 0) {
    drawChart(doc, fonts, input.chart.data, input.chart.type, { x: MARGIN, y, width: pageWidth, height: CHART_HEIGHT });
    y += CHART_HEIGHT + 16;
  }

  const headers = table.columns.map((c) => fonts.clean(c.header));
  let widths: number[] | null = null;
  const header = () => {
    doc
      .rect(
        MARGIN,
        y,
        widths!.reduce((a, b) => a + b, 0),
        HEADER_HEIGHT,
      )
      .fill('#f1f3f5');
    doc.font(fonts.bold).fontSize(FONT_SIZE).fillColor('#212529');
    let x = MARGIN;
    headers.forEach((text, i) => {
      const w = widths![i]!;
      doc.text(fit(doc, text, w - CELL_PAD * 2), x + CELL_PAD, y + 5, {
        width: Math.max(1, w - CELL_PAD * 2),
        align: table.columns[i]!.numeric ? 'right' : 'left',
        lineBreak: false,
      });
      x += w;
    });
    y += HEADER_HEIGHT;
    doc.font(fonts.regular).fontSize(FONT_SIZE).fillColor('#212529');
  };
  const newPage = (withHeader = true) => {
    doc.addPage();
    page += 1;
    footer();
    y = MARGIN;
    if (withHeader) header();
  };

  let written = 0;
  let capped = false;
  for await (const chunk of table.chunks()) {
    if (!widths) {
      const sample = chunk.slice(0, SAMPLE_ROWS);
      doc.font(fonts.bold).fontSize(FONT_SIZE);
      const natural = headers.map((h) => doc.widthOfString(h) + CELL_PAD * 2 + 2);
      doc.font(fonts.regular).fontSize(FONT_SIZE);
      for (const { cells } of sample) {
        cells.forEach((cell, i) => {
          natural[i] = Math.max(natural[i]!, doc.widthOfString(fonts.clean(cell ?? '')) + CELL_PAD * 2 + 2);
        });
      }
      widths = fitWidths(natural, pageWidth);
      if (y + HEADER_HEIGHT + ROW_HEIGHT * 3 > bottom) newPage();
      else header();
    }
    for (const row of chunk) {
      if (written >= input.maxRows) {
        capped = true;
        break;
      }
      if (y + ROW_HEIGHT > bottom) newPage();
      if (written % 2 === 1) {
        doc
          .rect(
            MARGIN,
            y,
            widths.reduce((a, b) => a + b, 0),
            ROW_HEIGHT,
          )
          .fill('#f8f9fa');
        doc.fillColor('#212529');
      }
      let x = MARGIN;
      doc.font(row.strong ? fonts.bold : fonts.regular);
      row.cells.forEach((cell, i) => {
        const w = widths![i]!;
        if (cell) {
          // Never a width below 1: pdfkit's line wrapper can loop forever in a box of no width.
          doc.text(fit(doc, fonts.clean(cell), w - CELL_PAD * 2), x + CELL_PAD, y + 3.5, {
            width: Math.max(1, w - CELL_PAD * 2),
            align: table.columns[i]!.numeric ? 'right' : 'left',
            lineBreak: false,
          });
        }
        x += w;
      });
      y += ROW_HEIGHT;
      written += 1;
    }
    input.onRows?.(written);
    if (capped) break;
    await unread(doc);
  }
  if (!widths) {
    doc.font(fonts.regular).fontSize(10).fillColor('#495057').text('No rows.', MARGIN, y, { lineBreak: false });
    return;
  }
  if (capped) {
    if (y + 30 > bottom) newPage(false);
    doc
      .font(fonts.bold)
      .fontSize(9)
      .fillColor('#c92a2a')
      .text(REPORT_MESSAGES.pdfCapped(written, Math.max(table.total ?? written, written + 1)), MARGIN, y + 10, {
        width: pageWidth,
        lineBreak: false,
      });
  }
}
