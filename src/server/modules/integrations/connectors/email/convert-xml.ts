/**
 * XML -> records. DuckDB has no XML reader available offline, so XML attachments are turned into
 * JSON lines here. The records are the first repeated element found under the root
 * (<orders><order>..</order><order>..</order></orders>, also one level deeper for wrappers such
 * as <export><orders>...</orders></export>); a root with a single child element is one record.
 * Child elements become fields, attributes too (no prefix); nested elements stay objects (Json).
 *
 * XML holds text only. A value spelled as a plain number is that number exactly, as a JSON number
 * token would be (a double where it prints back as written, else an ExactNumber: 204142800000.079190
 * and 12345678901234567890 keep every digit, 0.10 its scale), so a column of numbers is typed as
 * numbers whatever their digits. Other spellings ("007", "+1", "1e5", "0x1F") stay text, as in a CSV
 * file; "true" and "false" are booleans.
 */
import { XMLParser } from 'fast-xml-parser';
import { ExactNumber, isCanonicalNumber } from '../../../../exact-values/json';
import { isRecord } from '../rest-api/config-values';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'value',
  // Values stay text here; typedValue reads them exactly (the parser's numbers are doubles).
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const PLAIN_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function typedValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (!PLAIN_NUMBER.test(text)) return text;
  return isCanonicalNumber(text) ? Number(text) : new ExactNumber(text);
}

/** Every text of the parsed document typed (typedValue). */
function typed(value: unknown): unknown {
  if (typeof value === 'string') return typedValue(value);
  if (Array.isArray(value)) return value.map(typed);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v)]));
  return value;
}

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
    document = typed(parser.parse(xml, true));
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
