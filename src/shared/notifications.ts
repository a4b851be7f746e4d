/**
 * Notifications (spec: the bell; entity in section 3, calls in section 7). A notification belongs
 * to one user in one account. Its kind says which event made it; a user's preferences say which
 * kinds they want (Settings → User), all on by default.
 */
import { z } from 'zod';
import { idSchema } from './accounts';
import { pagedSchema, wholeNumber } from './api';
import { LIMITS } from './limits';

export const NOTIFICATION_SEVERITIES = ['Info', 'Warning', 'Error'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/**
 * What a notification points at. The spec's types, plus Run (a sync run; its integration is
 * `parentId`) and File (a report).
 */
export const NOTIFICATION_TARGET_TYPES = [
  'Integration',
  'Run',
  'Model',
  'StaticTable',
  'Automation',
  'User',
  'Account',
  'File',
] as const;
export type NotificationTargetType = (typeof NOTIFICATION_TARGET_TYPES)[number];

/** The events that create notifications; later areas add theirs here (and a label below). */
export const NOTIFICATION_KINDS = [
  'SyncFailed',
  'SyncReauthRequired',
  'SyncRecovered',
  'InvitationAccepted',
  'RoleChanged',
  'PublicLinkFirstUsed',
  'ReportReady',
  'AutomationFailed',
  'AutomationNotice',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How Settings → User names each kind. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, { label: string; description: string }> = {
  SyncFailed: { label: 'Sync failed', description: 'A sync of an integration failed (account writers).' },
  SyncReauthRequired: {
    label: 'Re-authentication required',
    description: 'An integration needs its credentials again before it can sync (account writers).',
  },
  SyncRecovered: {
    label: 'Sync recovered',
    description: 'An integration synced again after failing (account writers).',
  },
  InvitationAccepted: { label: 'Invitation accepted', description: 'Someone you invited joined the account.' },
  RoleChanged: { label: 'Role changed', description: 'Your roles in an account were changed.' },
  PublicLinkFirstUsed: {
    label: 'Public link used',
    description: 'A public link of a report you created was used for the first time.',
  },
  ReportReady: { label: 'Report ready', description: 'A report you asked for is ready to download.' },
  AutomationFailed: { label: 'Automation failed', description: 'A run of an automation you own failed.' },
  AutomationNotice: {
    label: 'Automation messages',
    description: "Messages an automation's Notify step sends you.",
  },
};

export const notificationTargetSchema = z.object({
  type: z.enum(NOTIFICATION_TARGET_TYPES),
  id: z.string(),
  /** The entity the target lives in when its address needs it: a Run's integration. */
  parentId: z.string().nullable().optional(),
});
export type NotificationTarget = z.infer<typeof notificationTargetSchema>;

/** The spec's entity, with the account it belongs to and its kind. */
export const notificationSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  target: notificationTargetSchema.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = pagedSchema(notificationSchema);
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

/** GET /api/notifications/count answer. */
export const notificationCountSchema = z.object({ totalCount: z.number().int() });
export type NotificationCount = z.infer<typeof notificationCountSchema>;

/** Count and list: without accountId, every account of the caller. */
export const notificationCountInputSchema = z.object({ accountId: idSchema.optional() });
export type NotificationCountInput = z.infer<typeof notificationCountInputSchema>;

export const notificationListInputSchema = z.object({
  page: wholeNumber(z.number().int().min(1)).default(1),
  pageSize: wholeNumber(z.number().int().min(1).max(200)).default(LIMITS.notificationsPageSize),
  accountId: idSchema.optional(),
});
export type NotificationListInput = z.output<typeof notificationListInputSchema>;

/** GET /api/notifications: the spec's Page/PageSize names, each also accepted in lower case. */
export const notificationListQuerySchema = z
  .object({
    Page: z.string().optional(),
    PageSize: z.string().optional(),
    AccountId: z.string().optional(),
    page: z.string().optional(),
    pageSize: z.string().optional(),
    accountId: z.string().optional(),
  })
  .transform(
    (q) =>
      ({
        page: q.Page ?? q.page,
        pageSize: q.PageSize ?? q.pageSize,
        accountId: q.AccountId ?? q.accountId,
      }) as z.input<typeof notificationListInputSchema>,
  )
  .pipe(notificationListInputSchema);

/** POST /api/notifications/read: marks every notification of the caller in the account read. */
export const markAllReadSchema = z.object({ accountId: idSchema });
export type MarkAllReadInput = z.infer<typeof markAllReadSchema>;

export const notificationIdSchema = z.object({ id: idSchema });

/** The caller's choice per kind; every kind is listed (on unless turned off). */
export const notificationPreferencesSchema = z.object({
  kinds: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()),
});
export type NotificationPreferences = { kinds: Record<NotificationKind, boolean> };

/** Turns some kinds on or off; kinds not named keep their setting. */
export const setNotificationPreferencesSchema = z.object({
  kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.boolean()),
});
export type SetNotificationPreferencesInput = z.infer<typeof setNotificationPreferencesSchema>;

/** The SignalR client method a new notification is pushed with (spec section 7). */
export const RECEIVE_NOTIFICATION = 'ReceiveNotification';

/**
 * Pushed to the user's other tabs and devices when notifications were marked read, so every bell
 * shows the same count at once: `{ ids }` for one, `{ accountId }` for 'Mark all as read'.
 */
export const NOTIFICATIONS_READ = 'NotificationsRead';
