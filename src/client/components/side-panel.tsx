import { Drawer } from '@mantine/core';
import { useRef, useState, type ReactNode } from 'react';
import { TIMINGS } from '../../shared/limits';
import { useEscapeLayer } from '../lib/escape-layers';
import { useFocusFirstField } from '../lib/focus-first-field';
import { ConfirmDialog } from './confirm-dialog';

interface SidePanelProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** When true, closing asks first, since unsaved progress would be lost. */
  confirmClose?: boolean;
  size?: string | number;
}

export const CLOSE_PROMPT = 'Are you sure you want to close this window? All progress will be lost.';

/**
 * A panel sliding in from the right; its close animation lasts 200 ms. It opens with its first
 * field focused (the close button stays reachable by Shift+Tab and Escape closes it, once any
 * dialog opened from it has closed).
 */
export function SidePanel({ opened, onClose, title, children, confirmClose, size = 'lg' }: SidePanelProps) {
  const [asking, setAsking] = useState(false);
  const requestClose = () => (confirmClose ? setAsking(true) : onClose());
  const body = useRef<HTMLDivElement>(null);
  useFocusFirstField(body, opened);
  // Escape closes a dialog opened from the panel first, and the panel only on the next press.
  useEscapeLayer(opened && !asking, requestClose);
  return (
    <>
      <Drawer
        opened={opened}
        onClose={requestClose}
        closeOnEscape={false}
        closeButtonProps={{ 'aria-label': 'Close' }}
        position="right"
        title={title}
        size={size}
        transitionProps={{ duration: TIMINGS.sidePanelCloseMs, transition: 'slide-left' }}
      >
        <div ref={body}>{children}</div>
      </Drawer>
      <ConfirmDialog
        opened={asking}
        message={CLOSE_PROMPT}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}
