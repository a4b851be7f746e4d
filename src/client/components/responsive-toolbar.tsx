import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Text,
  Tooltip,
  type MantineBreakpoint,
  type MantineColor,
  type MantineSize,
} from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import { useNarrow } from '../lib/use-narrow';

/** One action of a toolbar: a button inline on wide screens, a menu item in '…' on narrow ones. */
export interface ToolbarAction {
  /** Stable React key. */
  key: string;
  /** The button's text, and the menu item's. */
  label: string;
  icon?: ReactNode;
  onClick?: () => void;
  disabled?: boolean;
  /** Why the action is disabled: a tooltip on the button, a second line in the menu. */
  reason?: string;
  color?: MantineColor;
  variant?: 'filled' | 'light' | 'default' | 'subtle' | 'outline';
  loading?: boolean;
  /** Stays inline at every width (the page's main action, or a widget with no menu form). */
  pinned?: boolean;
  /** Replaces the default inline Button: a Menu, Popover, FileButton or SegmentedControl. */
  inline?: ReactNode;
  /**
   * Replaces the default Menu.Item in the '…' menu (e.g. a FileButton around a Menu.Item).
   * Render Mantine `Menu.Item`s so the menu's keyboard navigation reaches them.
   */
  menu?: ReactNode;
  /** Sub-actions listed under the label in the '…' menu (what an inline Menu offers). */
  items?: ToolbarAction[];
}

export type ToolbarEntry = ToolbarAction | false | null | undefined;

export interface ResponsiveToolbarProps {
  /** In order; falsy entries are skipped, so `canWrite && {...}` reads naturally. */
  actions: ToolbarEntry[];
  /**
   * Below this viewport width the unpinned actions move into the '…' menu: a Mantine breakpoint
   * ('xs' 576, 'sm' 768, 'md' 992, 'lg' 1200) or a number of pixels. Default 'md', where the
   * sidebar still takes 248 px and a wide toolbar no longer fits.
   */
  collapseBelow?: MantineBreakpoint | number;
  size?: MantineSize | `compact-${MantineSize}`;
  /** The accessible name of the '…' button. */
  moreLabel?: string;
  justify?: 'flex-start' | 'flex-end' | 'space-between' | 'center';
}

/**
 * The one rule for toolbars that must work at 390 px: inline buttons that wrap onto a second line
 * when they run out of room, and, below `collapseBelow`, every unpinned action in a '…' menu
 * (keyboard reachable: Tab to '…', arrows through the items, Escape closes only the menu).
 */
export function ResponsiveToolbar({
  actions,
  collapseBelow = 'md',
  size = 'xs',
  moreLabel = 'More actions',
  justify = 'flex-end',
}: ResponsiveToolbarProps) {
  const narrow = useNarrow(collapseBelow);
  const present = actions.filter((a): a is ToolbarAction => Boolean(a));
  const inline = narrow ? present.filter((a) => a.pinned) : present;
  const overflow = narrow ? present.filter((a) => !a.pinned) : [];
  return (
    <Group gap="xs" wrap="wrap" justify={justify} style={{ minWidth: 0 }} data-narrow={narrow || undefined}>
      {inline.map((action) => (
        <Fragment key={action.key}>{action.inline ?? <InlineButton action={action} size={size} />}</Fragment>
      ))}
      {overflow.length > 0 && <OverflowMenu actions={overflow} label={moreLabel} size={size} />}
    </Group>
  );
}

function InlineButton({ action, size }: { action: ToolbarAction; size: ResponsiveToolbarProps['size'] }) {
  const button = (
    <Button
      size={size}
      variant={action.variant ?? 'default'}
      color={action.color}
      leftSection={action.icon}
      onClick={action.onClick}
      disabled={action.disabled}
      loading={action.loading}
    >
      {action.label}
    </Button>
  );
  if (!action.reason) return button;
  // A disabled button gets no pointer events: the tooltip sits on a wrapper that stays focusable.
  return (
    <Tooltip label={action.reason} multiline maw={320}>
      <span tabIndex={action.disabled ? 0 : -1} style={{ display: 'inline-flex' }}>
        {button}
      </span>
    </Tooltip>
  );
}

function OverflowMenu({
  actions,
  label,
  size,
}: {
  actions: ToolbarAction[];
  label: string;
  size: ResponsiveToolbarProps['size'];
}) {
  return (
    <Menu position="bottom-end" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <Tooltip label={label}>
          {/* As tall as the toolbar's buttons ('input-xs' is an xs Button's height). */}
          <ActionIcon
            variant="default"
            size={size?.startsWith('compact') ? 'md' : `input-${size ?? 'xs'}`}
            aria-label={label}
          >
            <IconDots size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Fragment key={action.key}>
            {action.items ? (
              <>
                <Menu.Label>{action.label}</Menu.Label>
                {action.items.map((item) => (
                  <Fragment key={item.key}>{item.menu ?? <OverflowItem action={item} />}</Fragment>
                ))}
              </>
            ) : (
              (action.menu ?? <OverflowItem action={action} />)
            )}
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function OverflowItem({ action }: { action: ToolbarAction }) {
  return (
    <Menu.Item
      leftSection={action.icon}
      color={action.color}
      disabled={action.disabled || action.loading}
      onClick={action.onClick}
    >
      {action.label}
      {action.disabled && action.reason && (
        <Text size="xs" c="dimmed">
          {action.reason}
        </Text>
      )}
    </Menu.Item>
  );
}
