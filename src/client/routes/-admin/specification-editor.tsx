import { Alert, Group, List, Loader, Text, Textarea, UnstyledButton } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useRef } from 'react';
import type { SpecificationProblem } from '../../../shared/admin';
import type { CheckState } from './use-specification-check';

/** The character offset of a 1-based line and column in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + column - 1);
}

/**
 * The specification's JSON in a monospace editor, with its check below: each problem names its
 * place and, when it has one, moves the caret there.
 */
export function SpecificationEditor({
  value,
  onChange,
  check,
}: {
  value: string;
  onChange: (next: string) => void;
  check: CheckState;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const goTo = (problem: SpecificationProblem) => {
    const input = area.current;
    if (!input || problem.line === null || problem.column === null) return;
    const at = offsetOf(value, problem.line, problem.column);
    input.focus();
    input.setSelectionRange(at, at);
  };
  return (
    <>
      <Textarea
        ref={area}
        label="Specification"
        description="JSON with settings: a JSON Schema (draft-07) whose properties become the integration's form. Tab indents; Escape, then Tab, moves on."
        withAsterisk
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autosize
        minRows={14}
        maxRows={32}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        aria-invalid={check.status === 'invalid'}
        aria-describedby={check.status === 'invalid' ? 'specification-problems' : undefined}
        wrap="off"
        styles={{
          input: {
            fontFamily: 'var(--mantine-font-family-monospace)',
            fontSize: 13,
            lineHeight: 1.5,
            whiteSpace: 'pre',
            // Problems are listed below; the text itself stays readable (no red text).
            borderColor: check.status === 'invalid' ? 'var(--mantine-color-error)' : undefined,
            overflowX: 'auto',
          },
        }}
        onKeyDown={(e) => {
          // Tab indents inside the editor; Escape, then Tab, leaves it (keyboard users are never trapped).
          if (e.key !== 'Tab') {
            // Typing again after Escape: Tab indents again.
            if (e.key !== 'Escape' && e.key !== 'Shift') e.currentTarget.dataset.leave = 'false';
            return;
          }
          if (e.shiftKey || e.currentTarget.dataset.leave === 'true') return;
          e.preventDefault();
          const input = e.currentTarget;
          const { selectionStart, selectionEnd } = input;
          onChange(`${value.slice(0, selectionStart)}  ${value.slice(selectionEnd)}`);
          requestAnimationFrame(() => input.setSelectionRange(selectionStart + 2, selectionStart + 2));
        }}
        onKeyUp={(e) => {
          if (e.key === 'Escape') e.currentTarget.dataset.leave = 'true';
        }}
        onFocus={(e) => {
          e.currentTarget.dataset.leave = 'false';
        }}
      />
      <CheckResult check={check} onProblem={goTo} />
    </>
  );
}

function CheckResult({ check, onProblem }: { check: CheckState; onProblem: (p: SpecificationProblem) => void }) {
  if (check.status === 'checking')
    return (
      <Group gap="xs" aria-live="polite">
        <Loader size={14} />
        <Text size="sm" c="dimmed">
          Checking the specification…
        </Text>
      </Group>
    );
  if (check.status === 'valid')
    return (
      <Group gap="xs" aria-live="polite">
        <IconCircleCheck size={18} color="var(--mantine-color-green-7)" />
        <Text size="sm" c="green.8">
          The specification is valid.
        </Text>
      </Group>
    );
  if (check.status === 'failed')
    return (
      <Alert color="red" title="Could not check the specification" aria-live="polite">
        {check.message}
      </Alert>
    );
  return (
    <Alert
      color="red"
      title={
        check.problems.length === 1
          ? 'The specification has a problem'
          : `The specification has ${check.problems.length} problems`
      }
      aria-live="polite"
      id="specification-problems"
      data-testid="specification-problems"
    >
      <List size="sm" spacing={4}>
        {check.problems.map((p, i) => (
          <List.Item key={`${p.message}-${i}`}>
            {p.line !== null ? (
              <UnstyledButton
                onClick={() => onProblem(p)}
                style={{ textAlign: 'left', fontSize: 'inherit' }}
                title="Go to this place in the specification"
              >
                <Text span size="sm" ff="monospace" c="red.9">
                  {p.line}:{p.column}
                </Text>{' '}
                <Text span size="sm">
                  {p.message}
                </Text>
              </UnstyledButton>
            ) : (
              p.message
            )}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
