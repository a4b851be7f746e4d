import { Button, type ButtonProps } from '@mantine/core';
import { IconCheck, IconRefresh, IconSend } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { TIMINGS } from '../../shared/limits';
import { sendErrorReport, type ErrorReport } from '../lib/error-report';
import { useAutoReset } from '../lib/use-auto-reset';

type State = 'idle' | 'loading' | 'success' | 'failure';

/** Sends an error report: loading, a check mark for 5 s after success, a retry state on failure. */
export function ReportButton({
  report,
  label = 'Report issue',
  ...props
}: { report: ErrorReport; label?: string } & ButtonProps) {
  const [state, setState] = useState<State>('idle');

  const toIdle = useCallback(() => setState('idle'), []);
  useAutoReset(state === 'success', toIdle, TIMINGS.successIconMs);

  const send = async () => {
    setState('loading');
    try {
      await sendErrorReport(report);
      setState('success');
    } catch {
      setState('failure');
    }
  };

  const icon =
    state === 'success' ? (
      <IconCheck size={16} />
    ) : state === 'failure' ? (
      <IconRefresh size={16} />
    ) : (
      <IconSend size={16} />
    );
  return (
    <Button
      {...props}
      leftSection={icon}
      loading={state === 'loading'}
      color={state === 'failure' ? 'red' : state === 'success' ? 'teal' : props.color}
      onClick={() => void send()}
      aria-live="polite"
    >
      {state === 'failure' ? 'Retry' : state === 'success' ? 'Reported' : label}
    </Button>
  );
}
