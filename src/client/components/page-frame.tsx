import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The one page width rule: every page of the workspace and admin shells fills the main area up
 * to this width, left-aligned beside the sidebar. Pages set no width of their own (a form inside a
 * page may be narrower; the page is not).
 */
export const PAGE_MAX_WIDTH = 1440;

/** The container the shells put around every page; `minWidth: 0` lets its content shrink to 390 px. */
export function PageFrame({ children }: { children: ReactNode }) {
  return (
    <Box maw={PAGE_MAX_WIDTH} w="100%" miw={0} data-page-frame>
      {children}
    </Box>
  );
}
