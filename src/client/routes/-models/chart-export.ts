/**
 * A drawn chart as a file. SVG: the chart's own SVG (recharts draws one) with every style it gets
 * from CSS written onto its elements, since theme colors are CSS variables a standalone file cannot
 * resolve, under a title and above a legend drawn in SVG (the on-screen legend is HTML). PNG: that
 * SVG drawn on a canvas at twice its size, on white.
 */

/** The styles that decide how SVG shapes and text look, copied from the computed style. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';
const TITLE_HEIGHT = 40;
const LEGEND_ROW = 22;
const PADDING = 16;

export interface ChartFileInput {
  /** The element the chart is drawn in; its largest `svg` is the chart. */
  root: HTMLElement;
  title: string;
  /** Legend entries with colors as CSS values (resolved here). */
  legend: { label: string; color: string }[];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Any CSS color (a variable too) as the browser computes it, e.g. `rgb(34, 139, 230)`. */
function resolveColor(color: string, host: HTMLElement): string {
  const probe = document.createElement('span');
  probe.style.color = color;
  host.appendChild(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  return resolved || color;
}

function chartSvgElement(root: HTMLElement): SVGSVGElement | null {
  const all = [...root.querySelectorAll<SVGSVGElement>('svg.recharts-surface')];
  let best: SVGSVGElement | null = null;
  let area = 0;
  for (const svg of all) {
    const box = svg.getBoundingClientRect();
    if (box.width * box.height > area) {
      area = box.width * box.height;
      best = svg;
    }
  }
  return best;
}

/** A copy of the chart's SVG with the computed styles of each element written on it. */
function inlinedCopy(svg: SVGSVGElement): SVGSVGElement {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  originals.forEach((original, index) => {
    const target = copies[index];
    if (!(target instanceof Element)) return;
    const computed = getComputedStyle(original);
    // Only what differs from the parent: the rest is inherited (or the same) in the file too.
    const parent = index > 0 && original.parentElement ? getComputedStyle(original.parentElement) : null;
    const style = STYLE_PROPS.flatMap((prop) => {
      const value = computed.getPropertyValue(prop);
      return value && value !== parent?.getPropertyValue(prop) ? [`${prop}:${value}`] : [];
    }).join(';');
    if (style) target.setAttribute('style', style);
    else target.removeAttribute('style');
    // Presentation attributes naming CSS variables mean nothing outside the page.
    for (const attribute of ['fill', 'stroke', 'stop-color', 'color']) {
      if (target.getAttribute(attribute)?.includes('var(')) target.removeAttribute(attribute);
    }
    target.removeAttribute('class');
  });
  return copy;
}

/** Legend entries laid out in rows that fit the width: [x, y] of each. */
function legendLayout(
  labels: readonly string[],
  width: number,
  font: string,
): { at: [number, number][]; rows: number } {
  const context = document.createElement('canvas').getContext('2d');
  if (context) context.font = font;
  const measure = (text: string) => (context ? context.measureText(text).width : text.length * 7);
  const at: [number, number][] = [];
  let x = PADDING;
  let row = 0;
  for (const label of labels) {
    const itemWidth = 12 + 6 + measure(label) + 18;
    if (x + itemWidth > width - PADDING && x > PADDING) {
      row += 1;
      x = PADDING;
    }
    at.push([x, row * LEGEND_ROW]);
    x += itemWidth;
  }
  return { at, rows: labels.length === 0 ? 0 : row + 1 };
}

/** The chart as a standalone SVG document, with its size. */
export function chartSvg(input: ChartFileInput): { svg: string; width: number; height: number } {
  const chart = chartSvgElement(input.root);
  if (!chart) throw new Error('The chart is not drawn yet.');
  const box = chart.getBoundingClientRect();
  const width = Math.max(320, Math.round(box.width) + PADDING * 2);
  const chartHeight = Math.round(box.height);
  const fontFamily = getComputedStyle(input.root).fontFamily || 'sans-serif';
  const legendFont = `12px ${fontFamily}`;
  const { at, rows } = legendLayout(
    input.legend.map((entry) => entry.label),
    width,
    legendFont,
  );
  const legendTop = TITLE_HEIGHT + chartHeight + 12;
  const height = legendTop + rows * LEGEND_ROW + PADDING;

  const copy = inlinedCopy(chart);
  copy.setAttribute('x', String(PADDING));
  copy.setAttribute('y', String(TITLE_HEIGHT));
  copy.setAttribute('width', String(Math.round(box.width)));
  copy.setAttribute('height', String(chartHeight));
  copy.removeAttribute('style');
  const inner = new XMLSerializer().serializeToString(copy);

  const legend = input.legend
    .map((entry, index) => {
      const [x, y] = at[index]!;
      const color = escapeXml(resolveColor(entry.color, input.root));
      return (
        `<g class="legend-item" transform="translate(${x},${legendTop + y})">` +
        `<rect width="12" height="12" rx="2" fill="${color}"/>` +
        `<text x="18" y="10" font-size="12" fill="#343a40">${escapeXml(entry.label)}</text></g>`
      );
    })
    .join('');
  const svg =
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="${escapeXml(fontFamily)}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<text x="${PADDING}" y="26" font-size="16" font-weight="600" fill="#212529">${escapeXml(input.title)}</text>` +
    `${inner}${legend}</svg>`;
  return { svg, width, height };
}

/** The SVG drawn on a canvas at `scale` times its size, on white, as PNG. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw the chart as an image.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be made.'))), 'image/png'),
  );
}

/** Saves a blob under a file name, as a link with `download` does. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has taken the blob by the next task; the URL can go then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a model or pivot name: no characters file systems refuse. */
export function chartFileName(name: string, extension: 'png' | 'svg'): string {
  const safe = name.replace(/[^\w .-]+/g, '_').trim() || 'chart';
  return `${safe}.${extension}`;
}
