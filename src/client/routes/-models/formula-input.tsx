import { Paper, Popover, ScrollArea, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { FormulaFunctionInfo } from '../../../shared/functions';
import { columnReference, completionContext, type CompletionContext } from '../../../shared/formula-text';
import type { ColumnType } from '../../../shared/tables';

export interface FormulaColumnOption {
  columnKey: string;
  displayName: string;
  type: ColumnType;
}

interface Suggestion {
  id: string;
  label: string;
  detail: string;
  /** Replaces the text from the context's start to the caret. */
  insert: string;
}

const MAX_SUGGESTIONS = 50;

/** Columns whose name contains the query, those starting with it first. */
function columnSuggestions(columns: readonly FormulaColumnOption[], query: string): Suggestion[] {
  const q = query.trim().toLocaleLowerCase();
  return columns
    .map((c) => ({ c, at: c.displayName.toLocaleLowerCase().indexOf(q) }))
    .filter(({ at }) => at !== -1)
    .sort((a, b) => Number(a.at !== 0) - Number(b.at !== 0) || a.c.displayName.localeCompare(b.c.displayName))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ c }) => ({
      id: c.columnKey,
      label: c.displayName,
      detail: c.type,
      insert: columnReference(c.displayName),
    }));
}

function functionSuggestions(functions: readonly FormulaFunctionInfo[], query: string): Suggestion[] {
  const q = query.toUpperCase();
  return functions
    .filter((f) => f.name.startsWith(q))
    .slice(0, MAX_SUGGESTIONS)
    .map((f) => ({ id: f.name, label: f.signature, detail: f.description, insert: `${f.name}(` }));
}

/**
 * The formula box: a textarea that completes column names after `[` and function names (with
 * their signature) as the user types. Arrow keys move in the list, Enter or Tab take the
 * suggestion, Escape closes the list only (never the dialog or panel around it).
 */
export function FormulaInput({
  value,
  onChange,
  columns,
  functions,
  error,
  description,
  inputRef,
}: {
  value: string;
  onChange: (value: string) => void;
  columns: readonly FormulaColumnOption[];
  functions: readonly FormulaFunctionInfo[];
  error?: ReactNode;
  description?: ReactNode;
  /** Lets the editor insert at the caret. */
  inputRef?: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const ownRef = useRef<HTMLTextAreaElement | null>(null);
  const ref = inputRef ?? ownRef;
  const listId = useId();
  const [context, setContext] = useState<CompletionContext>(null);
  const [active, setActive] = useState(0);
  /** The context the user closed with Escape: not shown again until the caret leaves it. */
  const [dismissed, setDismissed] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);

  const suggestions = useMemo(() => {
    if (!context) return [];
    return context.kind === 'column'
      ? columnSuggestions(columns, context.query)
      : functionSuggestions(functions, context.query);
  }, [context, columns, functions]);
  const contextKey = context ? `${context.kind}:${context.start}` : null;
  const open = suggestions.length > 0 && contextKey !== dismissed;

  useLayoutEffect(() => {
    if (pendingCaret.current === null || !ref.current) return;
    ref.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  });

  const follow = (text: string, caret: number) => {
    const next = completionContext(text, caret);
    setContext(next);
    setActive(0);
    const key = next ? `${next.kind}:${next.start}` : null;
    if (key !== dismissed) setDismissed(null);
  };

  const accept = (suggestion: Suggestion) => {
    const input = ref.current;
    if (!context || !input) return;
    const caret = input.selectionStart;
    // A column's closing `]` already typed after the caret is replaced too.
    const after = context.kind === 'column' && value[caret] === ']' ? caret + 1 : caret;
    const text = value.slice(0, context.start) + suggestion.insert + value.slice(after);
    pendingCaret.current = context.start + suggestion.insert.length;
    onChange(text);
    setContext(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const chosen = suggestions[active];
      if (!chosen || event.shiftKey) return;
      event.preventDefault();
      accept(chosen);
    } else if (event.key === 'Escape') {
      // Only the list closes: the dialog or panel around the editor stays open.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(contextKey);
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <Popover
      opened={open}
      position="bottom-start"
      width="target"
      shadow="md"
      closeOnEscape={false}
      trapFocus={false}
      returnFocus={false}
      zIndex={400}
      // Shown at once while typing: a fade would let the text under it show through.
      transitionProps={{ duration: 0 }}
    >
      <Popover.Target>
        <Textarea
          ref={ref}
          label="Formula"
          placeholder="e.g. ROUND([Amount] * 1.2, 2)"
          autosize
          minRows={3}
          value={value}
          error={error}
          description={description}
          spellCheck={false}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(active) : undefined}
          data-mantine-stop-propagation={open ? 'true' : undefined}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
          onChange={(e) => {
            onChange(e.currentTarget.value);
            follow(e.currentTarget.value, e.currentTarget.selectionStart);
          }}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => {
            if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) {
              follow(e.currentTarget.value, e.currentTarget.selectionStart);
            }
          }}
          onClick={(e) => follow(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={() => setContext(null)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      </Popover.Target>
      <Popover.Dropdown p={4}>
        <ScrollArea.Autosize mah={240}>
          <Paper id={listId} role="listbox" aria-label={context?.kind === 'column' ? 'Columns' : 'Functions'}>
            {suggestions.map((s, i) => (
              <UnstyledButton
                key={s.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                tabIndex={-1}
                display="block"
                w="100%"
                px="xs"
                py={4}
                bg={i === active ? 'var(--mantine-color-blue-light)' : undefined}
                style={{ borderRadius: 4 }}
                // Keeps the caret in the formula box.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => accept(s)}
              >
                <Text size="sm" ff={context?.kind === 'function' ? 'monospace' : undefined} lineClamp={1}>
                  {s.label}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {s.detail}
                </Text>
              </UnstyledButton>
            ))}
          </Paper>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
