import type { FileInfo, FileOriginType, FileStatus, SharedLink } from '../../../shared/files';
import { filePaths } from '../../../shared/files';
import type { FileLinkRow, FileRow } from '../../db/schema';

/** The address a public link's token gives: the public download page of this site. */
export function publicUrlOf(publicUrl: string, token: string): string {
  return `${publicUrl}${filePaths.publicPage(token)}`;
}

/** The spec's File entity from a row and its live link (if any). */
export function fileInfo(row: FileRow, link: FileLinkRow | undefined, publicUrl: string): FileInfo {
  return {
    id: row.id,
    name: row.name,
    fileSize: row.file_size,
    contentType: row.content_type,
    originEntityType: row.origin_entity_type as FileOriginType,
    originEntityTypeId: row.origin_entity_type_id,
    createdAt: row.created_at,
    status: row.status as FileStatus,
    progress: row.progress,
    error: row.error,
    shared: link !== undefined,
    sharedExpiresAt: link?.expires_at ?? null,
    downloadUrl: link ? publicUrlOf(publicUrl, link.token) : null,
    downloadCount: link?.download_count ?? 0,
    lastUsedAt: link?.last_used_at ?? null,
  };
}

export function sharedLink(link: FileLinkRow, publicUrl: string): SharedLink {
  return {
    downloadUrl: publicUrlOf(publicUrl, link.token),
    expiresAt: link.expires_at,
    createdAt: link.created_at,
    downloadCount: link.download_count,
    lastUsedAt: link.last_used_at,
  };
}
