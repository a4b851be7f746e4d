import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import { IconCheck, IconRefresh, IconSend } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { TIMINGS } from '../../shared/limits';
import { errorMessage, errorStatus } from '../lib/error-message';
import { sendErrorReport, type ErrorReport } from '../lib/error-report';
import { useAutoReset } from '../lib/use-auto-reset';

type State = 'idle' | 'loading' | 'success' | 'failure' | 'signed-out';

/**
 * Sends an error report: loading, a check mark for 5 s after success, a retry state on failure
 * (its tooltip says why, e.g. too many reports); a signed-out page cannot report and says so.
 */
export function ReportButton({
  report,
  label = 'Report issue',
  ...props
}: { report: ErrorReport; label?: string } & ButtonProps) {
  const [state, setState] = useState<State>('idle');
  const [failure, setFailure] = useState('');

  const toIdle = useCallback(() => setState('idle'), []);
  useAutoReset(state === 'success', toIdle, TIMINGS.successIconMs);

  const send = async () => {
    setState('loading');
    try {
      await sendErrorReport(report);
      setState('success');
    } catch (error) {
      setFailure(errorMessage(error));
      setState(errorStatus(error) === 401 ? 'signed-out' : 'failure');
    }
  };

  if (state === 'signed-out') {
    return (
      <Button {...props} disabled aria-live="polite">
        Sign in to report
      </Button>
    );
  }

  const icon =
    state === 'success' ? (
      <IconCheck size={16} />
    ) : state === 'failure' ? (
      <IconRefresh size={16} />
    ) : (
      <IconSend size={16} />
    );
  return (
    <Tooltip label={failure} disabled={state !== 'failure' || !failure} multiline maw={320}>
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
    </Tooltip>
  );
}
