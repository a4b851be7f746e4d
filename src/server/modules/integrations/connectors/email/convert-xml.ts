/**
 * XML -> records. DuckDB has no XML reader available offline, so XML attachments are turned into
 * JSON lines here. The records are the first repeated element found under the root
 * (<orders><order>..</order><order>..</order></orders>, also one level deeper for wrappers such
 * as <export><orders>...</orders></export>); a root with a single child element is one record.
 * Child elements become fields, attributes too (no prefix); nested elements stay objects (Json).
 */
import { XMLParser } from 'fast-xml-parser';
import { isRecord } from '../rest-api/config-values';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'value',
  parseTagValue: true,
  parseAttributeValue: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // "007" and "0x1F" are identifiers, not numbers.
  numberParseOptions: { leadingZeros: false, hex: false, eNotation: false },
});

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : { value };
}

/** The first array among an element's children, searching `depth` levels down. */
function firstRepeated(element: unknown, depth: number): unknown[] | null {
  if (!isRecord(element)) return null;
  for (const child of Object.values(element)) if (Array.isArray(child)) return child as unknown[];
  if (depth <= 1) return null;
  for (const child of Object.values(element)) {
    const found = firstRepeated(child, depth - 1);
    if (found) return found;
  }
  return null;
}

export function xmlToRecords(xml: string): Record<string, unknown>[] {
  let document: unknown;
  try {
    document = parser.parse(xml, true);
  } catch (error) {
    throw new Error(`not well-formed XML (${error instanceof Error ? error.message : String(error)})`);
  }
  const roots = isRecord(document) ? Object.values(document) : [];
  const root = roots.find((r) => isRecord(r) || Array.isArray(r));
  if (root === undefined) return [];
  if (Array.isArray(root)) return root.map(asRecord);
  const repeated = firstRepeated(root, 2);
  if (repeated) return repeated.map(asRecord);
  const children = Object.values(root);
  return children.length === 1 && isRecord(children[0]) ? [children[0]] : [root];
}
