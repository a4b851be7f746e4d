import { ActionIcon, Kbd, Modal, Popover, ScrollArea, TextInput } from '@mantine/core';
import { useDebouncedValue, useWindowEvent } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import { SEARCH_DEBOUNCE_MS, SEARCH_MESSAGES, SEARCH_MIN_QUERY_LENGTH } from '../../../shared/search';
import { useNarrow } from '../../lib/use-narrow';
import { trpc } from '../../trpc';
import { RESULT_ITEM, SearchResults } from './search-results';

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Moves focus between the results with the arrow keys (from the box, Down enters the list). */
function moveFocus(container: HTMLElement | null, event: KeyboardEvent, input: HTMLInputElement | null) {
  if (!container || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
  const items = [...container.querySelectorAll<HTMLElement>(`[${RESULT_ITEM}]`)];
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLElement);
  if (event.key === 'ArrowDown') (items[at + 1] ?? items[0])?.focus();
  else if (at <= 0) input?.focus();
  else items[at - 1]?.focus();
}

/**
 * The header's global search (spec: Global search): as you type, the account's values that start
 * with the words, grouped by dataset then table with match counts; each matching column opens the
 * table's grid filtered on it. Ctrl/Cmd+K or '/' focuses it; arrows move through the results,
 * Escape closes them. On a phone a search button opens it full screen.
 */
export function GlobalSearch() {
  const phone = useNarrow('sm');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [debounced] = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const enabled = open && debounced.length >= SEARCH_MIN_QUERY_LENGTH;
  const result = trpc.search.query.useQuery(
    { query: debounced },
    { enabled, placeholderData: keepPreviousData, staleTime: 10_000 },
  );
  // The answer shown is the one for what is typed now (while typing, the previous one stays).
  const waitingForDebounce = query.trim() !== debounced;

  useWindowEvent('keydown', (event) => {
    const k = event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey);
    const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target);
    if (!k && !slash) return;
    event.preventDefault();
    setOpen(true);
    input.current?.focus();
    input.current?.select();
  });

  const close = () => setOpen(false);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (phone) close();
      else if (open) setOpen(false);
      else input.current?.blur();
      input.current?.focus();
      return;
    }
    if (!open) setOpen(true);
    moveFocus(panel.current, event, input.current);
  };

  const box = (
    <TextInput
      ref={input}
      value={query}
      onChange={(event) => {
        setQuery(event.currentTarget.value);
        setOpen(true);
      }}
      onFocus={() => setOpen(true)}
      onKeyDown={onKeyDown}
      placeholder={SEARCH_MESSAGES.placeholder}
      aria-label="Search data"
      leftSection={<IconSearch size={16} />}
      rightSection={phone ? null : <Kbd size="xs">/</Kbd>}
      rightSectionPointerEvents="none"
      w="100%"
      data-autofocus
    />
  );
  const results = (
    <div ref={panel} onKeyDown={onKeyDown} role="region" aria-label="Search results" aria-live="polite">
      <SearchResults
        query={query}
        data={result.data}
        loading={result.isFetching || waitingForDebounce}
        error={result.error}
        onFollow={close}
      />
    </div>
  );

  if (phone) {
    return (
      <>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Search data" onClick={() => setOpen(true)}>
          <IconSearch size={20} />
        </ActionIcon>
        <Modal opened={open} onClose={close} fullScreen title="Search" transitionProps={{ duration: 0 }}>
          {box}
          <div style={{ marginTop: 12 }}>{results}</div>
        </Modal>
      </>
    );
  }
  return (
    <Popover
      opened={open}
      onChange={setOpen}
      onDismiss={close}
      position="bottom-start"
      width={520}
      shadow="md"
      trapFocus={false}
      returnFocus={false}
      closeOnEscape={false}
    >
      <Popover.Target>
        <div style={{ width: '100%', maxWidth: 420 }}>{box}</div>
      </Popover.Target>
      <Popover.Dropdown p="sm">
        <ScrollArea.Autosize mah="min(70vh, 560px)" type="auto">
          {results}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
