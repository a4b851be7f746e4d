import { px, useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is narrower than the breakpoint (or pixel width), read at the first render so
 * a phone never draws the wide layout first. The one media rule of the shells and toolbars.
 */
export function useNarrow(below: MantineBreakpoint | number): boolean {
  const theme = useMantineTheme();
  const limit = typeof below === 'number' ? below : Number(px(theme.breakpoints[below]));
  return useMediaQuery(`(max-width: ${limit - 0.02}px)`, false, { getInitialValueInEffect: false });
}
