/**
 * The optional language model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): a question the grammar could
 * not read is sent, with the part of the catalogue it seems to be about, to an OpenAI-compatible
 * /chat/completions endpoint in JSON mode. The model must answer the same plain-data query the
 * grammar makes (names of tables and columns, never SQL); the answer is validated with zod and
 * against the catalogue, and anything else is said plainly. The host goes through the outbound
 * policy like every connection the server opens.
 */
import { z } from 'zod';
import { AGGREGATIONS_BY_TYPE, takesTimeGrain } from '../../../shared/pivots';
import type { Config } from '../../config';
import type { Deps } from '../../context';
import { createOutboundPolicy } from '../../net/outbound-policy';
import type { Catalogue, CatalogueTable } from './catalogue';
import type { Understanding } from './grammar';
import { localDate, iso } from './periods';
import { queryBodySchema, type PlainQuery } from './plain-query';
import { readingOf } from './reading';
import { normalise, tokenize } from './tokens';

export function modelConfigured(config: Config): boolean {
  return config.llm !== null;
}

/** Tables sent to the model: those sharing most words with the question. */
const MAX_TABLES = 6;
const MAX_VALUES = 20;

const modelQuerySchema = queryBodySchema.extend({ table: z.string().min(1).max(300) });
const modelAnswerSchema = z.union([z.object({ cannot: z.string().max(500) }), modelQuerySchema]);

function relevantTables(catalogue: Catalogue, question: string): CatalogueTable[] {
  const words = new Set(tokenize(normalise(question)).map((t) => t.lemma));
  const score = (table: CatalogueTable) =>
    table.words.filter((w) => words.has(w)).length * 3 +
    table.columns.reduce(
      (sum, c) =>
        sum + c.words.filter((w) => words.has(w)).length + c.values.filter((v) => words.has(normalise(v))).length,
      0,
    );
  return [...catalogue.tables].sort((a, b) => score(b) - score(a)).slice(0, MAX_TABLES);
}

function describe(tables: CatalogueTable[]) {
  return tables.map((t) => ({
    table: t.name,
    columns: t.columns.map((c) => ({
      name: c.name,
      type: c.type,
      ...(c.values.length > 0 ? { values: c.values.slice(0, MAX_VALUES) } : {}),
    })),
  }));
}

const INSTRUCTIONS = [
  'You turn a question about business data into a JSON query. Never write SQL.',
  'Answer one JSON object, either {"cannot": "<why, in one sentence>"} or:',
  '{"table": "<table name>", "measures": [{"function": "Count"|"CountUnique"|"Sum"|"Min"|"Max"|"Avg", "column": "<column name>" or null for counting rows}],',
  ' "groupBy": [{"column": "<column name>", "grain": "day"|"week"|"month"|"quarter"|"year" or null}],',
  ' "filters": [{"column": "<column name>", "operator": "Equals"|"NotEquals"|"Between"|"GreaterThan"|"LessThan"|"GreaterThanOrEquals"|"LessThanOrEquals"|"Contains"|"NotContains"|"Exists"|"Empty", "value": <value>, "value2": <upper bound of Between>}],',
  ' "sort": null or {"by": "measure"|"group"|"column", "index": <measure index>, "column": <column name for by column>, "direction": "Ascending"|"Descending"},',
  ' "limit": <number of rows> or null, "select": [<column names to list when there are no measures>]}',
  'Use only the tables and columns given. Dates are YYYY-MM-DD. One table per query.',
].join('\n');

async function post(deps: Deps, url: URL, body: unknown, signal: AbortSignal): Promise<unknown> {
  const llm = deps.config.llm!;
  const policy = createOutboundPolicy({ allowPrivateNetworks: deps.config.outbound.privateNetworks });
  await policy.resolve(url.hostname, { port: Number(url.port) || undefined, signal });
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`the model's endpoint answered ${response.status}`);
  return response.json();
}

/** Names (or keys) of the catalogue → the query's keys; a name that is not there → null. */
function toQuery(answer: z.output<typeof modelQuerySchema>, tables: CatalogueTable[]): PlainQuery | string {
  const table = tables.find((t) => t.name.toLowerCase() === answer.table.toLowerCase().trim());
  if (!table) return `the model named a table that is not among yours ('${answer.table}')`;
  const column = (name: string) =>
    table.columns.find((c) => c.key === name) ??
    table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase().trim());
  const missing: string[] = [];
  const key = (name: string) => {
    const found = column(name);
    if (!found) missing.push(name);
    return found?.key ?? name;
  };
  const measures = answer.measures.map((m) => ({
    function: m.function,
    column: m.column === null ? null : key(m.column),
  }));
  const groupBy = answer.groupBy.map((g) => ({ column: key(g.column), grain: g.grain }));
  const filters = answer.filters.map((f) => ({ ...f, column: key(f.column) }));
  const sort = answer.sort
    ? { ...answer.sort, column: answer.sort.column === null ? null : key(answer.sort.column) }
    : null;
  const select = answer.select.map(key);
  if (missing.length > 0)
    return `the model named columns ${table.name} does not have (${missing.map((m) => `'${m}'`).join(', ')})`;
  for (const m of measures) {
    const c = m.column === null ? null : column(m.column);
    if (m.column === null && m.function !== 'Count') return `the model asked for ${m.function} without a column`;
    if (c && !AGGREGATIONS_BY_TYPE[c.type].includes(m.function))
      return `the model asked for ${m.function} of ${c.name}, a ${c.type} column`;
  }
  for (const g of groupBy) {
    const c = column(g.column)!;
    if (g.grain && !takesTimeGrain(c.type)) return `the model grouped ${c.name} by ${g.grain}, but it is not a date`;
  }
  const query: PlainQuery = {
    version: 1,
    table: { type: table.type, id: table.id, name: table.name },
    measures,
    groupBy,
    filters,
    sort,
    limit: answer.limit,
    select,
    reading: '',
  };
  return { ...query, reading: `${readingOf(query, table)} (read by the language model)` };
}

export async function askModel(
  deps: Deps,
  catalogue: Catalogue,
  question: string,
  options: { today: Date; timeZone?: string; signal?: AbortSignal; grammarSaid: string },
): Promise<Understanding> {
  const llm = deps.config.llm;
  if (!llm) return { kind: 'unknown', text: options.grammarSaid };
  const tables = relevantTables(catalogue, question);
  const today = iso(localDate(options.today, options.timeZone));
  const signals = [AbortSignal.timeout(llm.timeoutMs), ...(options.signal ? [options.signal] : [])];
  let content: string;
  try {
    const answer = (await post(
      deps,
      new URL(`${llm.baseUrl}/chat/completions`),
      {
        model: llm.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: JSON.stringify({ today, tables: describe(tables), question }) },
        ],
      },
      AbortSignal.any(signals),
    )) as { choices?: { message?: { content?: unknown } }[] };
    const raw = answer.choices?.[0]?.message?.content;
    if (typeof raw !== 'string') throw new Error('the answer had no message');
    content = raw;
  } catch (error) {
    options.signal?.throwIfAborted();
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? 'it did not answer in time'
        : error instanceof Error
          ? error.message
          : 'it failed';
    return { kind: 'unknown', text: `${options.grammarSaid} The language model could not help: ${why}.` };
  }
  let parsed: z.infer<typeof modelAnswerSchema>;
  try {
    parsed = modelAnswerSchema.parse(JSON.parse(content));
  } catch {
    return {
      kind: 'unknown',
      text: `${options.grammarSaid} The language model's answer was not a valid query, so I did not use it.`,
    };
  }
  if ('cannot' in parsed)
    return {
      kind: 'unknown',
      text: `${options.grammarSaid} The language model could not answer either: ${parsed.cannot}`,
    };
  const query = toQuery(parsed, tables);
  if (typeof query === 'string')
    return { kind: 'unknown', text: `${options.grammarSaid} I did not use the language model's answer: ${query}.` };
  return { kind: 'query', query, ignored: [] };
}
