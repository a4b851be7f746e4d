import {
  markAllReadSchema,
  notificationCountInputSchema,
  notificationIdSchema,
  notificationListInputSchema,
  setNotificationPreferencesSchema,
} from '../../../shared/notifications';
import { authedProcedure, router } from '../../trpc/trpc';

/** The bell's calls for the React client; the same service as REST (rest.ts). */
export const notificationsRouter = router({
  count: authedProcedure
    .input(notificationCountInputSchema)
    .query(({ ctx, input }) => ctx.services.notifications.count(ctx, input)),
  list: authedProcedure
    .input(notificationListInputSchema)
    .query(({ ctx, input }) => ctx.services.notifications.list(ctx, input)),
  markRead: authedProcedure
    .input(notificationIdSchema)
    .mutation(({ ctx, input }) => ctx.services.notifications.markRead(ctx, input.id)),
  markAllRead: authedProcedure
    .input(markAllReadSchema)
    .mutation(({ ctx, input }) => ctx.services.notifications.markAllRead(ctx, input)),
  preferences: authedProcedure.query(({ ctx }) => ctx.services.notifications.preferences(ctx)),
  setPreferences: authedProcedure
    .input(setNotificationPreferencesSchema)
    .mutation(({ ctx, input }) => ctx.services.notifications.setPreferences(ctx, input)),
});
