import type { NotificationTarget } from '../../../shared/notifications';

/**
 * The page a notification opens. Each target type has one address; a type whose page does not
 * exist (yet) opens nothing rather than a 404.
 */
export function notificationHref(target: NotificationTarget | null): string | null {
  if (!target) return null;
  const id = encodeURIComponent(target.id);
  switch (target.type) {
    case 'Integration':
      return `/integrations/${id}`;
    case 'Run':
      return target.parentId ? `/integrations/${encodeURIComponent(target.parentId)}/runs/${id}` : null;
    case 'Model':
      return `/models/${id}`;
    case 'StaticTable':
      return `/tables/${id}`;
    case 'Automation':
      return `/automations/${id}`;
    case 'File':
      return `/files/${id}`;
    case 'User':
      return '/settings/user';
    case 'Account':
      return '/settings/account';
  }
}
