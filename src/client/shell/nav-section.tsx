import { NavLink, Stack } from '@mantine/core';
import { useLocation, useRouter } from '@tanstack/react-router';
import { isActiveItem, type NavItem } from './nav-items';

/**
 * A labelled group of sidebar links. Links go through the router's history, so areas whose
 * routes land in later releases need no typed route yet.
 */
export function NavSection({ label, items, onNavigate }: { label: string; items: NavItem[]; onNavigate?: () => void }) {
  const router = useRouter();
  const path = useLocation({ select: (l) => l.pathname });
  return (
    <Stack gap={2}>
      <div className="nav-section-label">{label}</div>
      {items.map((item) => (
        <NavLink
          key={item.to}
          component="a"
          href={item.to}
          label={item.label}
          leftSection={<item.icon size={18} stroke={1.7} />}
          active={isActiveItem(item, path)}
          aria-current={isActiveItem(item, path) ? 'page' : undefined}
          variant="light"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            router.history.push(item.to);
            onNavigate?.();
          }}
        />
      ))}
    </Stack>
  );
}
