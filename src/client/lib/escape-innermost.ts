import type { KeyboardEvent } from 'react';

/**
 * Escape closes only the innermost popup. Mantine's Popover closes on Escape in the capture phase,
 * before an open Select, Combobox or Menu inside it sees the key, so one Escape closed both and the
 * popup's unsaved work was gone. Give the popup `closeOnEscape={false}` and this as its dropdown's
 * `onKeyDown`: an inner dropdown marks its target with `data-mantine-stop-propagation` while open
 * (the same mark Mantine's Modal honours), and then only that dropdown closes; the next Escape
 * closes the popup, and goes no further (a drawer around it stays open).
 */
export function closeOnOwnEscape(close: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    const inner = (event.target as HTMLElement).closest('[data-mantine-stop-propagation="true"]');
    if (inner && event.currentTarget.contains(inner)) return;
    event.stopPropagation();
    close();
  };
}
