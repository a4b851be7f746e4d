import { Modal, type ModalProps } from '@mantine/core';
import { useRef } from 'react';
import { useEscapeLayer } from '../lib/escape-layers';
import { useFocusFirstField } from '../lib/focus-first-field';

/**
 * The product's modal dialog: a Mantine Modal that opens with its first field focused (else its
 * first control, or the element marked `data-autofocus`), never the header's close button that
 * Mantine's focus trap would pick. The close button (named Close) stays one Shift+Tab away. Escape closes this
 * dialog only, not a side panel it was opened from.
 */
export function Dialog({ children, opened, onClose, closeOnEscape = true, closeButtonProps, ...props }: ModalProps) {
  const body = useRef<HTMLDivElement>(null);
  useFocusFirstField(body, opened);
  useEscapeLayer(opened && closeOnEscape, onClose);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnEscape={false}
      closeButtonProps={{ 'aria-label': 'Close', ...closeButtonProps }}
      {...props}
    >
      <div ref={body}>{children}</div>
    </Modal>
  );
}

/** Spread into props typed without data attributes (e.g. `viewportProps`) to mark what opens focused. */
export const AUTOFOCUS = { 'data-autofocus': true } as const;
