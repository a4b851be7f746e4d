/**
 * Execution accuracy of the Queries chat's grammar over the question set (test/queries): overall
 * and per kind of question, with the wrong answers, for bench/search-queries.bench.ts.
 */
import { measureAccuracy } from '../../test/queries/accuracy';

export interface AccuracyFigures {
  questions: number;
  correct: number;
  accuracy: number;
  byKind: Record<string, { total: number; correct: number; accuracy: number }>;
  wrongWithoutReading: number;
  wrong: { question: string; kind: string; detail: string }[];
}

export async function accuracyBenchmark(): Promise<AccuracyFigures> {
  const report = await measureAccuracy();
  return {
    questions: report.total,
    correct: report.correct,
    accuracy: report.accuracy,
    byKind: report.byKind,
    wrongWithoutReading: report.wrongWithoutReading,
    wrong: report.wrong.map((w) => ({ question: w.question.q, kind: w.question.kind, detail: w.detail })),
  };
}
