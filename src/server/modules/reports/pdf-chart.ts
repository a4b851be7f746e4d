/**
 * A chart drawn into a PDF with pdfkit's vector operations (not a picture of the page): the same
 * ChartData the pivot page draws (shared/chart-data.ts), as a bar, line, area or pie chart with axes,
 * a legend and the note when categories were left out.
 */
import type PDFDocument from 'pdfkit';
import { CHART_LIMITS, type ChartType } from '../../../shared/charts';
import { CATEGORY_KEY, SERIES_HEX, type ChartData } from '../../../shared/chart-data';
import type { PdfFonts } from './pdf-fonts';

type Doc = InstanceType<typeof PDFDocument>;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const AXIS = '#868e96';
const GRID = '#e9ecef';
const TEXT = '#495057';

const numberText = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
/** Past the compact form's largest unit (T), which would write every digit: 1E300, not 300 digits. */
const scientific = new Intl.NumberFormat('en-US', { notation: 'scientific', maximumFractionDigits: 2 });

function valueText(value: number, percent: boolean, short = false): string {
  const format = Math.abs(value) >= 1e15 ? scientific : short && Math.abs(value) >= 10_000 ? compact : numberText;
  return `${format.format(value)}${percent ? '%' : ''}`;
}

/**
 * A label cut to `max` characters, as the fonts write it on one line: a line break in a category (a
 * row key's text) drawn into a box of no width would keep pdfkit's line wrapper looping forever.
 */
function short(fonts: PdfFonts, text: string, max: number): string {
  const clean = fonts.clean(text);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Round axis steps (1, 2, 2.5, 5 × 10^n) covering min..max in about five steps. */
export function niceTicks(min: number, max: number): number[] {
  if (min === max) {
    const pad = Math.abs(min) || 1;
    return niceTicks(Math.min(0, min - pad), Math.max(0, max + pad));
  }
  const raw = (max - min) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

/** Legend entries in rows across the top of the box; answers the height used. */
function legend(doc: Doc, fonts: PdfFonts, entries: { label: string; color: string }[], box: Box): number {
  doc.font(fonts.regular).fontSize(8);
  let x = box.x;
  let y = box.y;
  for (const entry of entries) {
    const label = short(fonts, entry.label, 40);
    const width = 12 + doc.widthOfString(label) + 14;
    if (x + width > box.x + box.width && x > box.x) {
      x = box.x;
      y += 12;
    }
    doc.rect(x, y + 1, 8, 8).fill(entry.color);
    doc.fillColor(TEXT).text(label, x + 12, y + 1, { lineBreak: false });
    x += width;
  }
  return y - box.y + 16;
}

/** Draws `data` as `type` inside `box`. */
export function drawChart(doc: Doc, fonts: PdfFonts, data: ChartData, type: ChartType, box: Box): void {
  doc.save();
  const truncatedNote = data.truncated
    ? `Showing the first ${CHART_LIMITS.maxCategories} categories; the table holds every row.`
    : null;
  const bottomNote = truncatedNote ? 12 : 0;
  if (type === 'pie') drawPie(doc, fonts, data, { ...box, height: box.height - bottomNote });
  else drawAxes(doc, fonts, data, type, { ...box, height: box.height - bottomNote });
  if (truncatedNote) {
    doc
      .font(fonts.regular)
      .fontSize(8)
      .fillColor(AXIS)
      .text(truncatedNote, box.x, box.y + box.height - 10, { lineBreak: false });
  }
  doc.restore();
}

function drawAxes(doc: Doc, fonts: PdfFonts, data: ChartData, type: Exclude<ChartType, 'pie'>, box: Box): void {
  const entries = data.series.map((s, i) => ({ label: s.label, color: SERIES_HEX[i % SERIES_HEX.length]! }));
  const top = box.y + legend(doc, fonts, entries, box);
  const values = data.records.flatMap((r) =>
    data.series.map((s) => r[s.key]).filter((v): v is number => typeof v === 'number'),
  );
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const low = ticks[0]!;
  const high = ticks[ticks.length - 1]!;
  doc.font(fonts.regular).fontSize(7);
  // At most a third of the box: the plot keeps a width, however long a tick's text.
  const axisWidth = Math.min(
    box.width / 3,
    Math.max(...ticks.map((t) => doc.widthOfString(valueText(t, data.percent, true)))) + 6,
  );
  const crowded = data.records.length > 8;
  const labelHeight = crowded ? 50 : 14;
  const plot = {
    x: box.x + axisWidth,
    y: top,
    width: box.width - axisWidth,
    height: box.y + box.height - top - labelHeight,
  };
  const yOf = (v: number) => plot.y + plot.height - ((v - low) / (high - low)) * plot.height;

  for (const tick of ticks) {
    const y = yOf(tick);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .lineWidth(0.5)
      .strokeColor(GRID)
      .stroke();
    doc.fillColor(TEXT).text(valueText(tick, data.percent, true), box.x, y - 3, {
      width: Math.max(1, axisWidth - 4),
      align: 'right',
      lineBreak: false,
    });
  }
  const baseline = yOf(Math.max(low, Math.min(0, high)));
  doc
    .moveTo(plot.x, baseline)
    .lineTo(plot.x + plot.width, baseline)
    .lineWidth(0.8)
    .strokeColor(AXIS)
    .stroke();
  doc
    .moveTo(plot.x, plot.y)
    .lineTo(plot.x, plot.y + plot.height)
    .lineWidth(0.8)
    .strokeColor(AXIS)
    .stroke();

  const count = Math.max(1, data.records.length);
  const band = plot.width / count;
  const centre = (i: number) => plot.x + band * (i + 0.5);

  data.records.forEach((record, i) => {
    const label = short(fonts, String(record[CATEGORY_KEY] ?? ''), crowded ? 18 : Math.max(4, Math.floor(band / 4.5)));
    doc.fillColor(TEXT).fontSize(7);
    if (crowded) {
      const x = centre(i);
      const y = plot.y + plot.height + 4;
      doc.save().rotate(-45, { origin: [x, y] });
      doc.text(label, x - doc.widthOfString(label), y - 3, { lineBreak: false });
      doc.restore();
    } else {
      doc.text(label, centre(i) - band / 2, plot.y + plot.height + 4, {
        width: band,
        align: 'center',
        lineBreak: false,
      });
    }
  });

  data.series.forEach((series, s) => {
    const color = SERIES_HEX[s % SERIES_HEX.length]!;
    if (type === 'bar') {
      const inner = band * 0.8;
      const width = inner / data.series.length;
      data.records.forEach((record, i) => {
        const value = record[series.key];
        if (typeof value !== 'number') return;
        const x = centre(i) - inner / 2 + s * width;
        const y = yOf(value);
        doc.rect(x, Math.min(y, baseline), Math.max(0.5, width - 0.5), Math.abs(baseline - y)).fill(color);
      });
      return;
    }
    // Lines and areas join the points with a number across empty ones, as the pivot page draws them.
    const points: [number, number][] = [];
    data.records.forEach((record, i) => {
      const value = record[series.key];
      if (typeof value === 'number') points.push([centre(i), yOf(value)]);
    });
    const runs = [points];
    for (const run of runs.filter((r) => r.length > 0)) {
      if (type === 'area' && run.length > 1) {
        doc.moveTo(run[0]![0], baseline);
        for (const [x, y] of run) doc.lineTo(x, y);
        doc.lineTo(run[run.length - 1]![0], baseline).closePath();
        doc.fillColor(color).fillOpacity(0.25).fill();
        doc.fillOpacity(1);
      }
      doc.moveTo(run[0]![0], run[0]![1]);
      for (const [x, y] of run.slice(1)) doc.lineTo(x, y);
      doc.lineWidth(1.5).strokeColor(color).stroke();
      if (type === 'line') for (const [x, y] of run) doc.circle(x, y, 1.8).fill(color);
    }
  });
}

function drawPie(doc: Doc, fonts: PdfFonts, data: ChartData, box: Box): void {
  // A pie shows the first series' positive values, as the pivot page's pie does by default.
  const series = data.series[0];
  if (!series) return;
  const slices = data.records.flatMap((record, i) => {
    const value = record[series.key];
    if (typeof value !== 'number' || value <= 0) return [];
    return [{ label: String(record[CATEGORY_KEY] ?? ''), value, color: SERIES_HEX[i % SERIES_HEX.length]! }];
  });
  doc.font(fonts.bold).fontSize(9).fillColor(TEXT).text(series.label, box.x, box.y, { lineBreak: false });
  const sum = slices.reduce((total, slice) => total + slice.value, 0);
  const radius = Math.min(box.height - 24, box.width * 0.5) / 2;
  const cx = box.x + radius + 10;
  const cy = box.y + 16 + radius;
  let angle = -Math.PI / 2;
  for (const slice of slices) {
    const sweep = (slice.value / sum) * Math.PI * 2;
    if (sweep >= Math.PI * 2 - 1e-9) {
      doc.circle(cx, cy, radius).fill(slice.color);
    } else {
      const end = angle + sweep;
      // The arc as short straight steps (at most 2 degrees each): exact enough at any print size.
      const steps = Math.max(2, Math.ceil(sweep / (Math.PI / 90)));
      doc.moveTo(cx, cy);
      for (let k = 0; k <= steps; k++) {
        const a = angle + (sweep * k) / steps;
        doc.lineTo(cx + radius * Math.cos(a), cy + radius * Math.sin(a));
      }
      doc.closePath().fill(slice.color);
      angle = end;
    }
  }
  // White edges between slices, as the page draws them.
  angle = -Math.PI / 2;
  if (slices.length > 1) {
    for (const slice of slices) {
      doc
        .moveTo(cx, cy)
        .lineTo(cx + radius * Math.cos(angle), cy + radius * Math.sin(angle))
        .lineWidth(1)
        .strokeColor('#ffffff')
        .stroke();
      angle += (slice.value / sum) * Math.PI * 2;
    }
  }
  const legendBox = { x: cx + radius + 30, y: box.y + 16, width: box.x + box.width - (cx + radius + 30), height: 0 };
  doc.font(fonts.regular).fontSize(8);
  slices.slice(0, Math.floor((box.height - 16) / 12)).forEach((slice, i) => {
    const y = legendBox.y + i * 12;
    const share = ((slice.value / sum) * 100).toFixed(1);
    doc.rect(legendBox.x, y + 1, 8, 8).fill(slice.color);
    doc
      .fillColor(TEXT)
      .text(
        `${short(fonts, slice.label, 40)}: ${valueText(slice.value, data.percent)} (${share}%)`,
        legendBox.x + 12,
        y + 1,
        {
          width: Math.max(1, legendBox.width - 12),
          lineBreak: false,
        },
      );
  });
}
