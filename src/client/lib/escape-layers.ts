import { useEffect, useRef } from 'react';

/**
 * Escape closes only the innermost dialog or panel. Every open Mantine Modal and Drawer listens for
 * Escape on the window, so one Escape in a dialog opened from a side panel (Format from Columns
 * and relationships, a confirm over the pivot editor) closed both. Dialog and SidePanel register
 * here instead (with Mantine's closeOnEscape off): the last one opened closes, and the rest stay.
 */
const layers: { close: () => void }[] = [];

/** A popup's own Escape: an open Select, Combobox or Menu marks its target, a popover its dropdown. */
const OWN_ESCAPE = '[data-mantine-stop-propagation="true"], .mantine-Popover-dropdown';

function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.isComposing) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest(OWN_ESCAPE)) return;
  layers.at(-1)?.close();
}

/** While `opened`, this layer is the innermost one until another opens; Escape calls `close`. */
export function useEscapeLayer(opened: boolean, close: () => void): void {
  const latest = useRef(close);
  useEffect(() => {
    latest.current = close;
  });
  useEffect(() => {
    if (!opened) return;
    const layer = { close: () => latest.current() };
    layers.push(layer);
    // Capture, as Mantine does, so a handler that stops the event cannot keep Escape from a dialog.
    if (layers.length === 1) window.addEventListener('keydown', onKeyDown, true);
    return () => {
      layers.splice(layers.indexOf(layer), 1);
      if (layers.length === 0) window.removeEventListener('keydown', onKeyDown, true);
    };
  }, [opened]);
}
