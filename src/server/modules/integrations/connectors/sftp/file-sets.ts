/**
 * Which remote files belong to which dataset. A glob selects files in the folder; files whose
 * names differ only by a trailing date, time or number are one dataset named by the common prefix:
 * `orders_2024-01-31.csv` and `orders_2024-02-29.csv` -> `orders`, `export-0001.parquet` ->
 * `export`, `customers.csv` -> `customers`. A name that is only a date or number (`20240131.csv`)
 * goes to the dataset `files`.
 */

/** Glob -> RegExp over one file name: `*`, `?`, `[abc]`, `{a,b}`; everything else literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      inBraces = true;
      source += '(?:';
    } else if (c === '}' && inBraces) {
      inBraces = false;
      source += ')';
    } else if (c === ',' && inBraces) source += '|';
    else source += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const EXTENSION = /\.(csv|tsv|txt|jsonl|ndjson|json|parquet|pq)(\.gz)?$/i;
const TRAILING_DATE_OR_NUMBER = /[-_. ]*\d[\d\-_.:T]*$/;

export function datasetNameOf(fileName: string): string {
  const base = EXTENSION.test(fileName) ? fileName.replace(EXTENSION, '') : fileName.replace(/\.[A-Za-z]\w*$/, '');
  const prefix = base.replace(TRAILING_DATE_OR_NUMBER, '').replace(/[-_. ]+$/, '');
  return prefix === '' ? 'files' : prefix;
}

export interface RemoteFile {
  name: string;
  size: number;
  /** Seconds since the epoch (SFTP's resolution). */
  mtime: number;
}

/** Matching files grouped by dataset; each group sorted oldest first (then by name). */
export function groupFiles(files: RemoteFile[], pattern: string): Map<string, RemoteFile[]> {
  const matcher = globToRegExp(pattern);
  const groups = new Map<string, RemoteFile[]>();
  for (const file of files) {
    if (!matcher.test(file.name)) continue;
    const name = datasetNameOf(file.name);
    groups.set(name, [...(groups.get(name) ?? []), file]);
  }
  for (const group of groups.values()) group.sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
  return groups;
}

/** The saved state of an incremental dataset: newest modification time read and the files read at it. */
export interface FileState {
  modifiedAt: number;
  filesAtModifiedAt: string[];
}

export function readFileState(state: unknown): FileState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { modifiedAt, filesAtModifiedAt } = state as Partial<FileState>;
  if (typeof modifiedAt !== 'number' || !Array.isArray(filesAtModifiedAt)) return null;
  return { modifiedAt, filesAtModifiedAt: filesAtModifiedAt.filter((f) => typeof f === 'string') };
}

/** Files not read before: modified later than the state, or at its time but not among its files. */
export function newFiles(files: RemoteFile[], state: FileState | null): RemoteFile[] {
  if (!state) return files;
  return files.filter(
    (f) => f.mtime > state.modifiedAt || (f.mtime === state.modifiedAt && !state.filesAtModifiedAt.includes(f.name)),
  );
}

export function nextFileState(read: RemoteFile[], previous: FileState | null): FileState | null {
  let state = previous;
  for (const f of read) {
    if (!state || f.mtime > state.modifiedAt) state = { modifiedAt: f.mtime, filesAtModifiedAt: [f.name] };
    else if (f.mtime === state.modifiedAt && !state.filesAtModifiedAt.includes(f.name)) {
      state = { ...state, filesAtModifiedAt: [...state.filesAtModifiedAt, f.name] };
    }
  }
  return state;
}
