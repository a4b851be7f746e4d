/**
 * Execution accuracy of the grammar over the question set: each question is read (no language
 * model), compiled through the engine and run on the fixture's DuckDB, and its rows compared with
 * the rows of the question's own hand-written SQL. Used by the CI gate (test/unit/queries) and the
 * benchmark (bench/lib/question-accuracy.ts).
 */
import { compileQuestion } from '../../src/server/modules/queries/compile';
import { understand } from '../../src/server/modules/queries/grammar';
import { DESK_QUESTIONS } from './desk.questions';
import { NOW, openQuestionData, type QuestionData } from './fixture';
import type { QuestionCase } from './question-case';
import { SHOP_QUESTIONS } from './shop.questions';

export const QUESTION_SET: QuestionCase[] = [...SHOP_QUESTIONS, ...DESK_QUESTIONS];

export interface QuestionOutcome {
  question: QuestionCase;
  correct: boolean;
  /** How the answer said it read the question ('' when it gave no reading). */
  reading: string;
  /** What happened, for a report of the wrong ones. */
  detail: string;
}

export interface AccuracyReport {
  total: number;
  correct: number;
  accuracy: number;
  byKind: Record<string, { total: number; correct: number; accuracy: number }>;
  /** Wrong answers that came without their reading (must be 0). */
  wrongWithoutReading: number;
  wrong: QuestionOutcome[];
}

/** Cells compared as text: numbers to 2 decimals (sums of doubles differ in the last bits). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value).toFixed(2);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value).toFixed(2);
  const text = String(value);
  // A timestamp as DuckDB writes it and as the grid reads it.
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d/.test(text)) return text;
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d/.test(text)) return text;
  return text
    .replace('T', ' ')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

const rowKey = (row: unknown[]) => row.map(cell).join('\u0001');

async function one(data: QuestionData, question: QuestionCase): Promise<QuestionOutcome> {
  const understood = understand(question.q, data.catalogue, { today: NOW });
  const expect = question.expect ?? 'rows';
  if (understood.kind === 'ambiguous') {
    // Right when asking back was right, and every suggestion reads as one query.
    const clear = understood.suggestions.every((s) => understand(s, data.catalogue, { today: NOW }).kind === 'query');
    return {
      question,
      correct: expect === 'suggest' && understood.suggestions.length > 1 && clear,
      reading: understood.text,
      detail: `asked back: ${understood.suggestions.join(' | ')}`,
    };
  }
  if (understood.kind === 'unknown') {
    return {
      question,
      correct: expect === 'cannot',
      reading: understood.text,
      detail: `could not: ${understood.text}`,
    };
  }
  const reading = understood.query.reading;
  if (expect !== 'rows') return { question, correct: false, reading, detail: `answered: ${reading}` };
  const target = data.targets.get(understood.query.table.id)!;
  let actual: unknown[][];
  try {
    const compiled = compileQuestion(understood.query, target, 10_000);
    actual = compiled.read(await data.db.all(compiled.statement));
    if (compiled.kind === 'rows') actual = actual.slice(0, understood.query.limit ?? 100);
  } catch (error) {
    return { question, correct: false, reading, detail: `failed: ${(error as Error).message}` };
  }
  const expected = (await data.db.rows(question.sql)).map((row) => Object.values(row));
  const a = actual.map(rowKey);
  const e = expected.map(rowKey);
  if (!question.ordered) {
    a.sort();
    e.sort();
  }
  const correct = a.length === e.length && a.every((row, i) => row === e[i]);
  return {
    question,
    correct,
    reading,
    detail: correct
      ? ''
      : `read as: ${reading}; got ${a.length} rows ${a.slice(0, 2).join(' / ')}; expected ${e.length} rows ${e.slice(0, 2).join(' / ')}`,
  };
}

export async function measureAccuracy(questions: QuestionCase[] = QUESTION_SET): Promise<AccuracyReport> {
  const data = await openQuestionData();
  try {
    const outcomes: QuestionOutcome[] = [];
    for (const question of questions) outcomes.push(await one(data, question));
    const byKind: AccuracyReport['byKind'] = {};
    for (const o of outcomes) {
      const k = (byKind[o.question.kind] ??= { total: 0, correct: 0, accuracy: 0 });
      k.total++;
      if (o.correct) k.correct++;
    }
    for (const k of Object.values(byKind)) k.accuracy = k.correct / k.total;
    const wrong = outcomes.filter((o) => !o.correct);
    const correct = outcomes.length - wrong.length;
    return {
      total: outcomes.length,
      correct,
      accuracy: correct / outcomes.length,
      byKind,
      wrongWithoutReading: wrong.filter((o) => o.reading.trim() === '').length,
      wrong,
    };
  } finally {
    data.db.close();
  }
}
