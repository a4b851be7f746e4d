import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import {
  SPECIFICATION_CHECK_DEBOUNCE_MS,
  type SpecificationCheck,
  type SpecificationProblem,
} from '../../../shared/admin';
import { parseJsonText } from '../../../shared/json-text';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

export type CheckState =
  | { status: 'checking'; problems: SpecificationProblem[] }
  | { status: 'valid'; problems: [] }
  | { status: 'invalid'; problems: SpecificationProblem[] }
  | { status: 'failed'; message: string; problems: [] };

/**
 * The editor's check of a specification text. Syntax errors show at once (the same reader the server
 * uses, shared); the full check (shape, JSON Schema meta-schema, compile) is the server's own, asked
 * for once typing pauses, and only its answer for the text now in the editor counts.
 */
export function useSpecificationCheck(text: string): {
  state: CheckState;
  /** The parsed specification when the text is JSON, valid or not: what the preview draws. */
  parsed: unknown;
} {
  const local = useMemo(() => parseJsonText(text), [text]);
  const [settled] = useDebouncedValue(text, SPECIFICATION_CHECK_DEBOUNCE_MS);
  const [answers, setAnswers] = useState<
    { text: string; check: SpecificationCheck } | { text: string; error: string }
  >();
  const validate = trpc.admin.validateSpecification.useMutation({ meta: { silent: true } });
  const { mutateAsync } = validate;

  useEffect(() => {
    // A syntax error is shown from the text itself: no round trip.
    if (!parseJsonText(settled).ok) return;
    let current = true;
    mutateAsync({ specification: settled }).then(
      (check) => current && setAnswers({ text: settled, check }),
      (error: unknown) => current && setAnswers({ text: settled, error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [settled, mutateAsync]);

  let state: CheckState;
  if (!local.ok) {
    const { line, column } = local.position;
    state = {
      status: 'invalid',
      problems: [
        { message: `Invalid JSON at line ${line}, column ${column}: ${local.message}`, path: null, line, column },
      ],
    };
  } else if (!answers || answers.text !== text) state = { status: 'checking', problems: [] };
  else if ('error' in answers) state = { status: 'failed', message: answers.error, problems: [] };
  else if (answers.check.valid) state = { status: 'valid', problems: [] };
  else state = { status: 'invalid', problems: answers.check.problems };

  return { state, parsed: local.ok ? local.value : undefined };
}
