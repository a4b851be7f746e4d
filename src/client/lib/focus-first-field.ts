import { useEffect, type RefObject } from 'react';

// A Select's input is readonly but opens its list from the keyboard: it counts as a field.
const FIELD = [
  '[data-autofocus]',
  'input:not([type="hidden"]):not([disabled]):not([readonly])',
  'input[readonly][aria-haspopup]:not([disabled])',
  'textarea:not([disabled]):not([readonly])',
  'select:not([disabled])',
].join(', ');
const TABBABLE = `${FIELD}, button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])`;
const WAIT_MS = 1_500;
const STEP_MS = 50;

/**
 * When a panel opens, focus its first field (else its first control), not the header's close
 * button that Mantine's focus trap picks. Its content may still be loading, so this looks again
 * for a short while; it gives up as soon as the person has moved focus into the content.
 */
export function useFocusFirstField(container: RefObject<HTMLElement | null>, opened: boolean): void {
  useEffect(() => {
    if (!opened) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const root = container.current;
      const timedOut = Date.now() - started > WAIT_MS;
      // The person already moved into the content: leave their focus alone.
      if (root?.contains(document.activeElement)) return window.clearInterval(timer);
      const field = root?.querySelector<HTMLElement>(FIELD);
      if (!field && !timedOut) return;
      (field ?? root?.querySelector<HTMLElement>(TABBABLE))?.focus();
      window.clearInterval(timer);
    }, STEP_MS);
    return () => window.clearInterval(timer);
  }, [container, opened]);
}
