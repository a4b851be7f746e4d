/**
 * The Queries chat's understanding: a question → how it was read, the rows that answer it and the
 * SQL that ran, or a question back (suggestions), or a plain "I could not". The grammar
 * (grammar.ts) reads it without a language model; when it cannot and a model is configured
 * (llm.ts), the model is asked for the same plain-data query. The hub (chat-conversation) calls
 * `answerQuestion`; the export runs a stored query again with `runStoredQuery`.
 */
import type { CoreServices } from '../../services';
import type { AccountContext, Deps } from '../../context';
import { TABLE_TYPES } from '../../../shared/tables';
import { numberText } from '../tables/display-values';
import { isModelError } from '../../../engine';
import { loadCatalogue } from './account-catalogue';
import type { Catalogue } from './catalogue';
import { understand, type Understanding } from './grammar';
import { askModel, modelConfigured } from './llm';
import { plainQuerySchema, type PlainQuery } from './plain-query';
import { runAllPages, runQuery } from './run';

export interface QuestionEnv {
  deps: Deps;
  services: CoreServices;
  ctx: AccountContext;
}

export interface QuestionAnswer {
  /** The reply; never '' (a question that cannot be answered is said plainly). */
  text: string;
  /** How the question was read. */
  reading: string | null;
  /** Asks back when ambiguous; each a full question that sends itself. */
  suggestedActions: string[];
  result: {
    headers: string[];
    rows: unknown[][];
    rowCount: number;
    /** 'Show SQL': the SQL that ran, formatted, its values written in. */
    sql: string;
    /** The plain-data query, JSON-serialisable, run again for the export. */
    query: unknown;
  } | null;
}

export interface AnswerOptions {
  today: Date;
  timeZone?: string;
  signal?: AbortSignal;
  onStatus?: (text: string) => void;
  history?: { from: 'User' | 'Bot'; text: string }[];
}

/** Rows a chat answer carries. */
export const ANSWER_ROWS = 100;
/** Most rows an export of one answer writes. */
export const EXPORT_MAX_ROWS = 1_000_000;

function catalogueOf(env: QuestionEnv, question: string): Promise<Catalogue> {
  return loadCatalogue(
    env.deps,
    env.ctx,
    (ctx) => env.services.tables.list(ctx, { types: [...TABLE_TYPES], flatten: true }),
    question,
  );
}

/**
 * One value as the reply says it: a number with its thousands grouped and every digit (numberText);
 * a number the answer has as exact text (past 2^53, a wide decimal) as that text, as the grid shows
 * it (read as a double it would change: 9007199254740993 said as …992).
 */
function valueText(value: unknown): string {
  if (typeof value === 'number') return numberText(value);
  if (value === null || value === undefined) return 'nothing';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The reply's words: one value said as it is, a table as its size. */
function replyText(headers: string[], rows: unknown[][], rowCount: number, ignored: string[]): string {
  let text: string;
  if (rowCount === 1 && headers.length === 1) text = `${headers[0]}: ${valueText(rows[0]?.[0])}.`;
  else if (rowCount === 0) text = 'No rows match.';
  else text = `${rowCount.toLocaleString('en-US')} ${rowCount === 1 ? 'row' : 'rows'}.`;
  if (ignored.length > 0) text += ` I did not use: ${ignored.map((w) => `'${w}'`).join(', ')}.`;
  return text;
}

/** Understands the question (grammar first, then the optional model). */
export async function readQuestion(
  env: QuestionEnv,
  catalogue: Catalogue,
  question: string,
  options: AnswerOptions,
): Promise<Understanding> {
  const understood = understand(question, catalogue, options);
  if (understood.kind === 'query' || !modelConfigured(env.deps.config)) return understood;
  if (understood.kind === 'ambiguous') return understood;
  options.onStatus?.('Asking the language model');
  return askModel(env.deps, catalogue, question, { ...options, grammarSaid: understood.text });
}

export async function answerQuestion(
  env: QuestionEnv,
  question: string,
  options: AnswerOptions,
): Promise<QuestionAnswer> {
  options.onStatus?.('Matching columns');
  const catalogue = await catalogueOf(env, question);
  options.signal?.throwIfAborted();
  const understood = await readQuestion(env, catalogue, question, options);
  if (understood.kind === 'ambiguous') {
    return { text: understood.text, reading: null, suggestedActions: understood.suggestions, result: null };
  }
  if (understood.kind === 'unknown')
    return { text: understood.text, reading: null, suggestedActions: [], result: null };
  options.signal?.throwIfAborted();
  options.onStatus?.('Running query');
  const query = understood.query;
  try {
    const run = await runQuery(env.deps, env.ctx, query, { firstRows: ANSWER_ROWS });
    return {
      text: replyText(run.headers, run.rows, run.rowCount, understood.ignored),
      reading: query.reading,
      suggestedActions: [],
      result: { ...run, query },
    };
  } catch (error) {
    if (isModelError(error) || (error instanceof Error && 'statusCode' in error)) {
      return {
        text: `I read this as: ${query.reading}. It could not run: ${(error as Error).message}`,
        reading: query.reading,
        suggestedActions: [],
        result: null,
      };
    }
    throw error;
  }
}

/** Runs a stored plain-data query again (all rows, streamed in pages) for the export. */
export function runStoredQuery(
  env: QuestionEnv,
  query: unknown,
  options: { signal?: AbortSignal },
): AsyncIterable<{ headers: string[]; rows: unknown[][] }> {
  const parsed: PlainQuery = plainQuerySchema.parse(query);
  return runAllPages(env.deps, env.ctx, parsed, { pageRows: 5_000, maxRows: EXPORT_MAX_ROWS, signal: options.signal });
}
