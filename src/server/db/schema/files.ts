import type { Selectable } from 'kysely';

/** Stored files (reports, uploads, exports) and their public links. */
export interface FilesSchema {
  files: FilesTable;
  file_links: FileLinksTable;
}

/** A stored file (migrations/0010_files.ts); contents in the file store under storage_key. */
export interface FilesTable {
  id: string;
  account_id: string;
  created_by: string | null;
  type: string;
  name: string;
  file_size: number;
  content_type: string;
  storage_key: string;
  origin_entity_type: string;
  origin_entity_type_id: string | null;
  status: string;
  progress: number;
  error: string | null;
  created_at: string;
}
export type FileRow = Selectable<FilesTable>;

/** A public link of a file: the token is its address; expires_at null means never. */
export interface FileLinksTable {
  id: string;
  file_id: string;
  token: string;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  download_count: number;
  last_used_at: string | null;
}
export type FileLinkRow = Selectable<FileLinksTable>;
