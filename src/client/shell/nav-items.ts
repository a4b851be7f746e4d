import {
  IconBolt,
  IconBuildingCommunity,
  IconDatabase,
  IconFileAnalytics,
  IconHome,
  IconListSearch,
  IconMessageChatbot,
  IconPlugConnected,
  IconSearch,
  IconTable,
  IconTopologyStar3,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /**
   * The paths whose pages belong to this item, when not simply `to` and below it (an area whose
   * root holds other items' areas, e.g. /admin). Each matches itself and below.
   */
  activeFor?: readonly string[];
}

/** The sidebar of spec section 2. Areas arrive one issue at a time; their paths are fixed here. */
export const SERVICES_NAV: NavItem[] = [
  { label: 'Home', to: '/', icon: IconHome },
  { label: 'Integrations', to: '/integrations', icon: IconPlugConnected },
  { label: 'Tables', to: '/tables', icon: IconTable },
  { label: 'Models', to: '/models', icon: IconTopologyStar3 },
  { label: 'Automations', to: '/automations', icon: IconBolt },
  { label: 'Reports', to: '/reports', icon: IconFileAnalytics },
  { label: 'Queries', to: '/querytool', icon: IconMessageChatbot },
];

export const SETTINGS_NAV: NavItem[] = [
  { label: 'Account', to: '/settings/account', icon: IconBuildingCommunity },
  { label: 'User', to: '/settings/user', icon: IconUser },
];

export const ADMIN_NAV: NavItem[] = [
  // Its user and account pages are opened from its search; the other admin items are its siblings.
  { label: 'Search users/account', to: '/admin', icon: IconSearch, activeFor: ['/admin/user', '/admin/account'] },
  { label: 'Integration definitions', to: '/admin/integration/definitions', icon: IconDatabase },
  { label: 'Search index', to: '/admin/index', icon: IconListSearch },
];

export const ACCOUNT_NAV_ICON = IconUsers;

const within = (area: string, path: string) => path === area || path.startsWith(`${area}/`);

/** Whether `path` is inside the nav item's area ('/' only matches itself). */
export function isActivePath(itemTo: string, path: string): boolean {
  return itemTo === '/' ? path === '/' : within(itemTo, path);
}

/** Whether the item is the current page's: its own path, or one of the areas it names. */
export function isActiveItem(item: NavItem, path: string): boolean {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (item.activeFor) return normalized === item.to || item.activeFor.some((area) => within(area, normalized));
  return isActivePath(item.to, normalized);
}
