/** One question of the set and how its answer is checked (accuracy.ts). */
export interface QuestionCase {
  /** The kind of question, for accuracy per kind. */
  kind: string;
  q: string;
  /** Hand-written SQL whose rows are the expected answer (unused for 'suggest' and 'cannot'). */
  sql: string;
  /** Rows must come in this order (top N, sorted lists). */
  ordered?: boolean;
  /** 'rows' (default): the rows of `sql`; 'suggest': ask back with suggestions; 'cannot': say so. */
  expect?: 'rows' | 'suggest' | 'cannot';
}
