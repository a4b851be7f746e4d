/**
 * Files and reports (spec: Reports page, file download pages, File entity, section 7's file calls).
 * A file is a stored blob with metadata; a public link is a record of its own (a random token,
 * an expiry, revocable), so revoking then sharing again gives a new address.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { pagedSchema, wholeNumber } from './api';
import { LIMITS } from './limits';

/** What produced a file (spec: origin filter All origins, Automation, Model, StaticTable). */
export const FILE_ORIGIN_TYPES = ['Automation', 'Model', 'StaticTable'] as const;
export type FileOriginType = (typeof FILE_ORIGIN_TYPES)[number];

/** Kinds of files the list call takes as `type`; reports are the only kind shown so far. */
export const FILE_TYPES = ['Report'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** A report generated in the background is Pending (with progress) until Ready or Failed. */
export const FILE_STATUSES = ['Pending', 'Ready', 'Failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** Public URL expiry (spec sections 5 and 9): never, 1, 7, 30 or 365 days. */
export const SHARE_EXPIRY_DAYS = [null, 1, 7, 30, 365] as const;
export type ShareExpiryDays = (typeof SHARE_EXPIRY_DAYS)[number];

/** The create-public-URL dialog's choices, in the spec's words and order. */
export const SHARE_EXPIRY_CHOICES: ReadonlyArray<{ days: ShareExpiryDays; label: string }> = [
  { days: null, label: 'Never expires' },
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 365, label: '1 year' },
];

/**
 * How far a sent expiresAt may lie from now + one of the choices: the sender's clock may differ
 * from ours. Well under half a day, so no two choices can be confused.
 */
export const SHARE_EXPIRY_TOLERANCE_MS = 60 * 60_000;

export const FILE_MESSAGES = {
  downloaded: 'Your file has been downloaded.',
  loadError: 'Error loading file. Please try again later.',
  notFound: 'No file found. Please make sure you have been granted access to the file.',
  noReports: 'No reports found.',
  confirmDelete: 'Are you sure you want to delete this file?',
  badExpiry: 'Public URL expiry is one of never, 1, 7, 30 or 365 days.',
  notReady: 'The report is not ready yet.',
  notShared: 'The file has no public URL.',
} as const;

/** The spec's File entity, with what the owner also sees (status of generation, link use). */
export const fileSchema = z.object({
  id: z.string(),
  name: z.string(),
  fileSize: z.number().int(),
  contentType: z.string(),
  originEntityType: z.enum(FILE_ORIGIN_TYPES),
  originEntityTypeId: z.string().nullable(),
  createdAt: z.string(),
  status: z.enum(FILE_STATUSES),
  /** 0 to 100 while Pending. */
  progress: z.number().int(),
  /** Why generation failed, when Failed. */
  error: z.string().nullable(),
  shared: z.boolean(),
  sharedExpiresAt: z.string().nullable(),
  /** The live public link's address (the public download page), when shared. */
  downloadUrl: z.string().nullable(),
  /** Downloads through the live public link, and its last use. */
  downloadCount: z.number().int(),
  lastUsedAt: z.string().nullable(),
});
export type FileInfo = z.infer<typeof fileSchema>;

export const filePageSchema = pagedSchema(fileSchema);
export type FilePage = z.infer<typeof filePageSchema>;

/** GET /api/files?type=Report&Page&PageSize[&EntityType][&Query] (the spec's names). */
export const fileListQuerySchema = z.object({
  type: z.enum(FILE_TYPES).default('Report'),
  Page: wholeNumber(z.number().int().min(1)).default(1),
  PageSize: wholeNumber(z.number().int().min(1).max(200)).default(LIMITS.reportsPageSize),
  EntityType: z.enum(FILE_ORIGIN_TYPES).optional(),
  Query: z.string().trim().max(200).default(''),
});

/** The same list through tRPC. */
export const fileListInputSchema = z.object({
  type: z.enum(FILE_TYPES).default('Report'),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(200).default(LIMITS.reportsPageSize),
  entityType: z.enum(FILE_ORIGIN_TYPES).optional(),
  query: z.string().trim().max(200).default(''),
});
export type FileListRequest = z.output<typeof fileListInputSchema>;

/**
 * POST /api/files/{fileId}/shared {expiresAt}: null for never, or a date-time about 1, 7, 30 or
 * 365 days ahead (what the dialog sends), or one of those day counts itself (handy for scripts).
 */
export const shareRequestSchema = z.object({
  expiresAt: z.union([z.null(), z.iso.datetime({ offset: true }), z.number().int()]).default(null),
});
export type ShareRequest = z.output<typeof shareRequestSchema>;

export const shareInputSchema = shareRequestSchema.extend({ id: idSchema });

/** The live public link as the owner sees it. */
export const sharedLinkSchema = z.object({
  downloadUrl: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  downloadCount: z.number().int(),
  lastUsedAt: z.string().nullable(),
});
export type SharedLink = z.infer<typeof sharedLinkSchema>;

/** A public link's token in a path (ours are 32 characters of base64url); an unknown one answers 404. */
export const publicFileParamsSchema = z.object({ id: z.string().min(1).max(200) });

/** What the public download page learns before it downloads: only the file's name and size. */
export const publicFileSchema = z.object({ name: z.string(), fileSize: z.number().int() });
export type PublicFile = z.infer<typeof publicFileSchema>;

/** Paths of the download pages and calls, in one place for server and client. */
export const filePaths = {
  publicPage: (token: string) => `/download/${token}`,
  privatePage: (id: string) => `/files/${id}`,
  publicDownload: (token: string) => `/api/public/files/shared/${token}/download`,
  privateDownload: (id: string) => `/api/files/${id}/download`,
};
