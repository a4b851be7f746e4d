/**
 * Files and reports: the Reports page's list, downloads, and public links (spec: Reports page,
 * file download pages, section 7's /api/files calls). Contents live in `deps.files` (a FileStore),
 * metadata in the `files` and `file_links` tables. Every call is scoped to the caller's account; an
 * id of another account answers 404; read_only members change nothing.
 *
 * ## For areas that produce reports (Save as report, automations)
 *
 * A report is made in the background in three steps, so a page can show it at once as Pending:
 *
 * ```ts
 * requireWriter(ctx); // the caller's rule: creating a report is a write
 * const { id } = await services.files.createReport({
 *   accountId: ctx.accountId, userId: ctx.user.id,          // userId null for an automation
 *   name: 'Sales.pdf', contentType: 'application/pdf',
 *   originEntityType: 'Model', originEntityTypeId: model.id,
 * });
 * void (async () => {
 *   try {
 *     await services.files.setProgress(id, 40);              // 0..100, shown on the Reports page
 *     await services.files.completeReport(id, readable);     // stream in; Ready with its size
 *   } catch (error) {
 *     await services.files.failReport(id, 'Could not draw the chart.');
 *   }
 * })();
 * ```
 *
 * completeReport stores the stream (constant memory, crash-safe) and marks the file Ready; it
 * answers false when the file was deleted meanwhile (its contents are then removed). Pending files
 * left by a restart become Failed at the next start (`recoverAfterRestart`).
 */
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import {
  FILE_MESSAGES,
  type FileInfo,
  type FileListRequest,
  type FileOriginType,
  type FilePage,
  type PublicFile,
  type ShareRequest,
  type SharedLink,
} from '../../../shared/files';
import type { AccountContext, Deps } from '../../context';
import type { FileRow } from '../../db/schema';
import { newId, newTimeOrderedId } from '../../db/ids';
import { conflict, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import { notify } from '../notifications/notify';
import { expiryOf, liveLinkByToken, liveLinks, newShareToken } from './links';
import { fileInfo, sharedLink } from './view';

export interface NewReport {
  accountId: string;
  /** Who asked for it; null when an automation made it. */
  userId: string | null;
  name: string;
  contentType: string;
  originEntityType: FileOriginType;
  originEntityTypeId: string | null;
}

/** A file's contents on their way out, with what the answer's headers need. */
export interface FileDownload {
  name: string;
  contentType: string;
  size: number;
  stream: Readable;
}

const INTERRUPTED = 'The server restarted before the report was finished.';

/** LIKE's wildcards in a user's text match only themselves. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createFilesService(deps: Deps) {
  const { db } = deps;

  async function fileOf(ctx: AccountContext, id: string): Promise<FileRow> {
    const row = await db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', ctx.accountId)
      .executeTakeFirst();
    if (!row) throw notFound(FILE_MESSAGES.notFound);
    return row;
  }

  async function contentsOf(row: FileRow): Promise<FileDownload> {
    if (row.status !== 'Ready') throw conflict(FILE_MESSAGES.notReady);
    const stored = await deps.files.get(row.storage_key);
    if (!stored) throw notFound(FILE_MESSAGES.notFound);
    return { name: row.name, contentType: row.content_type, size: stored.size, stream: stored.stream };
  }

  async function info(row: FileRow): Promise<FileInfo> {
    const links = await liveLinks(db, [row.id], deps.clock());
    return fileInfo(row, links.get(row.id), deps.config.publicUrl);
  }

  return {
    /** GET /api/files: newest first, filtered by origin and by name (any letter case). */
    async list(ctx: AccountContext, request: FileListRequest): Promise<FilePage> {
      let query = db.selectFrom('files').where('account_id', '=', ctx.accountId).where('type', '=', request.type);
      if (request.entityType) query = query.where('origin_entity_type', '=', request.entityType);
      if (request.query) {
        const pattern = likePattern(request.query);
        // Escaped wildcards need the ESCAPE clause, which kysely's builder has no word for.
        // (SQLite's lower() folds A-Z only; names are matched in any ASCII letter case.)
        query = query.where(sql<boolean>`lower(${sql.ref('name')}) like ${pattern} escape '\\'`);
      }
      const { page, pageSize } = request;
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const links = await liveLinks(
        db,
        rows.map((r) => r.id),
        deps.clock(),
      );
      const count = Number(counted.n);
      return {
        page,
        pageSize,
        count,
        totalPages: Math.max(1, Math.ceil(count / pageSize)),
        hasMore: page * pageSize < count,
        data: rows.map((r) => fileInfo(r, links.get(r.id), deps.config.publicUrl)),
      };
    },

    async get(ctx: AccountContext, id: string): Promise<FileInfo> {
      return info(await fileOf(ctx, id));
    },

    /** DELETE /api/files/{id}: its links go with it; contents after the row (a crash leaves contents the start sweeps). */
    async remove(ctx: AccountContext, id: string): Promise<void> {
      requireWriter(ctx);
      const row = await fileOf(ctx, id);
      await db.deleteFrom('files').where('id', '=', row.id).execute();
      await deps.files.delete(row.storage_key);
    },

    /** GET /api/files/{id}/download for a member of the file's account. */
    async download(ctx: AccountContext, id: string): Promise<FileDownload> {
      return contentsOf(await fileOf(ctx, id));
    },

    /** POST /api/files/{fileId}/shared: a new link (new address); any live one is revoked. */
    async share(ctx: AccountContext, id: string, request: ShareRequest): Promise<SharedLink> {
      requireWriter(ctx);
      const row = await fileOf(ctx, id);
      if (row.status !== 'Ready') throw conflict(FILE_MESSAGES.notReady);
      const now = deps.clock();
      const link = {
        id: newId(),
        file_id: row.id,
        token: newShareToken(),
        created_by: ctx.user.id,
        created_at: now.toISOString(),
        expires_at: expiryOf(request.expiresAt, now),
        revoked_at: null,
        download_count: 0,
        last_used_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('file_links')
          .set({ revoked_at: now.toISOString() })
          .where('file_id', '=', row.id)
          .where('revoked_at', 'is', null)
          .execute();
        await trx.insertInto('file_links').values(link).execute();
      });
      return sharedLink(link, deps.config.publicUrl);
    },

    /** GET /api/files/{id}/shared: the live link, or 404 when the file is not shared. */
    async shared(ctx: AccountContext, id: string): Promise<SharedLink> {
      const row = await fileOf(ctx, id);
      const link = (await liveLinks(db, [row.id], deps.clock())).get(row.id);
      if (!link) throw notFound(FILE_MESSAGES.notShared);
      return sharedLink(link, deps.config.publicUrl);
    },

    /** DELETE /api/files/{id}/shared: the address stops working at once. Revoking nothing is no error. */
    async revoke(ctx: AccountContext, id: string): Promise<void> {
      requireWriter(ctx);
      const row = await fileOf(ctx, id);
      await db
        .updateTable('file_links')
        .set({ revoked_at: deps.clock().toISOString() })
        .where('file_id', '=', row.id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** What the public download page shows before downloading; 404 unless the link opens the file now. */
    async publicFile(token: string): Promise<PublicFile> {
      const link = await liveLinkByToken(db, token, deps.clock());
      const row = link && (await db.selectFrom('files').selectAll().where('id', '=', link.file_id).executeTakeFirst());
      if (!row || row.status !== 'Ready') throw notFound(FILE_MESSAGES.notFound);
      return { name: row.name, fileSize: row.file_size };
    },

    /**
     * GET /api/public/files/shared/{token}/download, with no session: checked on every download
     * (exists, not revoked, not expired), counted, and its first use told to the report's creator (a notification).
     */
    async publicDownload(token: string, { count = true }: { count?: boolean } = {}): Promise<FileDownload> {
      const now = deps.clock();
      const link = await liveLinkByToken(db, token, now);
      const row = link && (await db.selectFrom('files').selectAll().where('id', '=', link.file_id).executeTakeFirst());
      if (!link || !row || row.status !== 'Ready') throw notFound(FILE_MESSAGES.notFound);
      const download = await contentsOf(row);
      if (!count) return download;
      const counted = await db
        .updateTable('file_links')
        .set((eb) => ({ download_count: eb('download_count', '+', 1), last_used_at: now.toISOString() }))
        .where('id', '=', link.id)
        .returning('download_count')
        .executeTakeFirst();
      if (counted?.download_count === 1) {
        // Its first use is news to the report's creator (or, for an automation's, the link's).
        const recipient = row.created_by ?? link.created_by;
        if (recipient) {
          await notify(deps, {
            accountId: row.account_id,
            userIds: [recipient],
            kind: 'PublicLinkFirstUsed',
            title: 'Public link used',
            body: `The public link of "${row.name}" was used for the first time.`,
            severity: 'Info',
            target: { type: 'File', id: row.id },
          });
        }
      }
      return download;
    },

    // ---- Reports made in the background (see the top of this file) ----

    async createReport(report: NewReport): Promise<{ id: string }> {
      const id = newTimeOrderedId();
      await db
        .insertInto('files')
        .values({
          id,
          account_id: report.accountId,
          created_by: report.userId,
          type: 'Report',
          name: report.name,
          file_size: 0,
          content_type: report.contentType,
          storage_key: id,
          origin_entity_type: report.originEntityType,
          origin_entity_type_id: report.originEntityTypeId,
          status: 'Pending',
          progress: 0,
          error: null,
          created_at: deps.clock().toISOString(),
        })
        .execute();
      return { id };
    },

    async setProgress(id: string, percent: number): Promise<void> {
      const progress = Math.max(0, Math.min(100, Math.round(percent)));
      await db.updateTable('files').set({ progress }).where('id', '=', id).where('status', '=', 'Pending').execute();
    },

    /** Stores the contents and marks the report Ready; false when it was deleted meanwhile. */
    async completeReport(id: string, contents: Readable | AsyncIterable<Uint8Array>): Promise<boolean> {
      const row = await db.selectFrom('files').select('storage_key').where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      const { size } = await deps.files.put(row.storage_key, contents);
      const updated = await db
        .updateTable('files')
        .set({ status: 'Ready', progress: 100, file_size: size, error: null })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        await deps.files.delete(row.storage_key);
        return false;
      }
      return true;
    },

    async failReport(id: string, error: string): Promise<void> {
      await db
        .updateTable('files')
        .set({ status: 'Failed', error: error.slice(0, 1000) })
        .where('id', '=', id)
        .where('status', '=', 'Pending')
        .execute();
    },

    /**
     * At start, before anything runs: reports a restart interrupted are Failed, and contents whose
     * row is gone (a crash between a delete's two steps) are removed.
     */
    async recoverAfterRestart(): Promise<void> {
      await db
        .updateTable('files')
        .set({ status: 'Failed', error: INTERRUPTED })
        .where('status', '=', 'Pending')
        .execute();
      const known = new Set((await db.selectFrom('files').select('storage_key').execute()).map((r) => r.storage_key));
      for (const key of await deps.files.keys()) if (!known.has(key)) await deps.files.delete(key);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
