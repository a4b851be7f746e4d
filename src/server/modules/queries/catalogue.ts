/**
 * What the grammar matches a question against: the account's tables (integration datasets, static
 * tables, published models) with their columns, the words of every name in compared form
 * (words.ts), the synonyms users added, and the distinct values of small text columns.
 */
import type { ColumnType, TableType } from '../../../shared/tables';
import { nameWords } from './words';

export interface CatalogueColumn {
  key: string;
  /** The name users see (display name). */
  name: string;
  type: ColumnType;
  /** The name's words in compared form, e.g. unit_price → ['unit', 'price']. */
  words: string[];
  /** Synonyms users added for this column, each as words. */
  synonyms: string[][];
  /** Distinct values of a text column when it has few (values named in a question filter on it). */
  values: string[];
}

export interface CatalogueTable {
  type: TableType;
  id: string;
  name: string;
  /** Where the table is shown: the integration's name, 'Tables', the model's name. */
  groupName: string;
  words: string[];
  synonyms: string[][];
  columns: CatalogueColumn[];
}

export interface Catalogue {
  tables: CatalogueTable[];
}

export interface SynonymEntry {
  word: string;
  tableType: TableType;
  tableId: string;
  /** null: a synonym of the table itself. */
  columnKey: string | null;
}

/** Column names that carry no meaning of their own in a question. */
const FILLER = new Set(['at', 'on', 'is', 'the', 'of', 'a', 'in', 'has']);

/** The words a column is known by: its name without fillers ('signed_up_on' → signed up). */
export function meaningfulWords(words: string[]): string[] {
  const kept = words.filter((w) => !FILLER.has(w));
  return kept.length > 0 ? kept : words;
}

export function catalogueColumn(
  key: string,
  name: string,
  type: ColumnType,
  extra: { synonyms?: string[]; values?: string[] } = {},
): CatalogueColumn {
  return {
    key,
    name,
    type,
    words: meaningfulWords(nameWords(name)),
    synonyms: (extra.synonyms ?? []).map(nameWords).filter((w) => w.length > 0),
    values: extra.values ?? [],
  };
}

export function catalogueTable(
  ref: { type: TableType; id: string; name: string; groupName?: string },
  columns: CatalogueColumn[],
  synonyms: string[] = [],
): CatalogueTable {
  return {
    type: ref.type,
    id: ref.id,
    name: ref.name,
    groupName: ref.groupName ?? '',
    words: nameWords(ref.name),
    synonyms: synonyms.map(nameWords).filter((w) => w.length > 0),
    columns,
  };
}
