import { useEffect } from 'react';

/** While `active`, calls `reset` after `ms`: success ticks and check marks that fade after 5 s. */
export function useAutoReset(active: boolean, reset: () => void, ms: number): void {
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(reset, ms);
    return () => window.clearTimeout(timer);
  }, [active, reset, ms]);
}
