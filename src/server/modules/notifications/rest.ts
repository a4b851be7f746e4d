import type { FastifyInstance } from 'fastify';
import {
  markAllReadSchema,
  notificationCountInputSchema,
  notificationCountSchema,
  notificationIdSchema,
  notificationListQuerySchema,
  notificationPreferencesSchema,
  notificationsPageSchema,
  setNotificationPreferencesSchema,
} from '../../../shared/notifications';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

/** The bell's REST paths of spec section 7 (plus the caller's preferences), over the service. */
export function registerNotificationsRest(app: FastifyInstance, deps: Deps, services: Services): void {
  const tag = 'Notifications';
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/notifications/count',
      summary: "The caller's unread notifications, in one account or in all",
      description: 'The bell polls it every 60 s; a new notification is also pushed on /api/hubs/notifications.',
      tag,
      access: 'user',
      query: notificationCountInputSchema,
      answers: { 200: { description: 'How many are unread.', json: notificationCountSchema } },
    },
    async ({ ctx, query }) => services.notifications.count(ctx, query),
  );
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/notifications',
      summary: "The caller's notifications, newest first, paged (Page, PageSize 5 by default, AccountId)",
      tag,
      access: 'user',
      query: notificationListQuerySchema,
      answers: { 200: { description: 'One page.', json: notificationsPageSchema } },
    },
    async ({ ctx, query }) => services.notifications.list(ctx, query),
  );
  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/notifications/{id}/read',
      summary: 'Mark one of your notifications read',
      tag,
      access: 'user',
      params: notificationIdSchema,
      answers: { 204: { description: 'Read.' } },
      errors: [404],
    },
    async ({ ctx, params }) => {
      await services.notifications.markRead(ctx, params.id);
    },
  );
  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/notifications/read',
      summary: 'Mark all your notifications in an account read',
      tag,
      access: 'user',
      body: markAllReadSchema,
      answers: { 204: { description: 'All read.' } },
    },
    async ({ ctx, body }) => {
      await services.notifications.markAllRead(ctx, body);
    },
  );
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/notifications/preferences',
      summary: 'Which kinds of notification you receive',
      tag,
      access: 'user',
      answers: { 200: { description: 'Every kind, on or off.', json: notificationPreferencesSchema } },
    },
    async ({ ctx }) => services.notifications.preferences(ctx),
  );
  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/notifications/preferences',
      summary: 'Turn kinds of notification on or off (kinds not named keep their setting)',
      tag,
      access: 'user',
      body: setNotificationPreferencesSchema,
      answers: { 200: { description: 'Every kind, on or off.', json: notificationPreferencesSchema } },
    },
    async ({ ctx, body }) => services.notifications.setPreferences(ctx, body),
  );
}
