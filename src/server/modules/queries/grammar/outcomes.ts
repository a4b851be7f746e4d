/** The grammar's two ways of not answering, thrown from any step and caught by understand(). */

/** Several meanings: ask back, each suggestion a full question. */
export class Ambiguity {
  constructor(
    readonly text: string,
    readonly suggestions: string[],
  ) {}
}

/** Nothing in the tables answers this: say so plainly. */
export class Unanswerable {
  constructor(readonly text: string) {}
}

export const quoteList = (words: string[]) => words.map((w) => `'${w}'`).join(', ');

/** The question without its closing '?', '.' or '!', to extend into a suggestion. */
export const questionStem = (question: string) => question.trim().replace(/[?.!]+$/, '');
