import { useEffect, useRef } from 'react';

/**
 * Runs an effect once per mount even under StrictMode's double invocation: single-use tokens
 * must be spent exactly once.
 */
export function useOnce(effect: () => void): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    effect();
  }, [effect]);
}
