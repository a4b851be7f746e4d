/** Choosing the table a question is about, before its mentions are given meanings. */
import type { Catalogue, CatalogueTable } from '../catalogue';
import { STOPWORDS } from '../lexicon';
import type { Mention } from '../tokens';
import { entriesOf } from './items';
import { Ambiguity, questionStem, quoteList, Unanswerable } from './outcomes';

/** The table the question is about: the one that holds most of what it names. */
export function chooseTable(mentions: Mention[], catalogue: Catalogue, question: string): CatalogueTable {
  const named = mentions.filter(
    (m) =>
      m.entries.length > 0 &&
      (!m.keyword || m.entries.some((e) => e.kind === 'table' || (e.kind === 'column' && e.strength === 'exact'))),
  );
  if (named.length === 0) {
    const words = mentions.filter((m) => !m.keyword && m.num === null && !STOPWORDS.has(m.text)).map((m) => m.text);
    throw new Unanswerable(
      words.length > 0
        ? `I could not find ${quoteList(words)} in your tables.`
        : 'I could not tell which table this is about. Name a table or one of its columns.',
    );
  }
  const scored = catalogue.tables.map((table, index) => {
    const covered = named.filter((m) => entriesOf(m, table).length > 0).length;
    const subjectAt = named.findIndex((m) => entriesOf(m, table).some((e) => e.kind === 'table'));
    return { table, covered, subjectAt: subjectAt < 0 ? Number.MAX_SAFE_INTEGER : subjectAt, index };
  });
  const best = Math.max(...scored.map((s) => s.covered));
  const top = scored.filter((s) => s.covered === best).sort((a, b) => a.subjectAt - b.subjectAt || a.index - b.index);
  const first = top[0]!;
  const tied = top.filter((s) => s.subjectAt === first.subjectAt);
  if (tied.length > 1) {
    throw new Ambiguity(
      `${tied.length} tables could answer this. Which one do you mean?`,
      tied.map((s) => `${questionStem(question)} in ${s.table.name}`),
    );
  }
  const missing = named.filter((m) => entriesOf(m, first.table).length === 0);
  if (missing.length > 0) {
    throw new Unanswerable(
      `I could not find ${quoteList(missing.map((m) => m.text))} in ${first.table.name}` +
        `, and no one table holds everything the question names.`,
    );
  }
  return first.table;
}
