import { Button } from '@mantine/core';

/** The id of the shells' main area, the target of 'Skip to content'. */
export const MAIN_ID = 'main-content';

/**
 * The first stop of Tab on every shell page: hidden until focused, it jumps past the header and
 * the sidebar's eighteen links to the page itself.
 */
export function SkipToContent() {
  return (
    <Button
      component="a"
      href={`#${MAIN_ID}`}
      size="xs"
      className="skip-to-content"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      Skip to content
    </Button>
  );
}
