import { Alert, Anchor, Badge, Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Fragment } from 'react';
import {
  SEARCH_MESSAGES,
  SEARCH_MIN_QUERY_LENGTH,
  type SearchGroup,
  type SearchResponse,
  type SearchSnippet,
} from '../../../shared/search';
import { encodeFilterGroups } from '../../components/data-grid/url-state';
import { errorMessage } from '../../lib/error-message';

/** Every focusable result carries it, so the arrow keys can move between them. */
export const RESULT_ITEM = 'data-search-item';

/** The snippet with its hits marked. */
export function Highlighted({ snippet }: { snippet: SearchSnippet }) {
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const [start, end] of snippet.highlights) {
    if (start > at) parts.push({ text: snippet.text.slice(at, start), hit: false });
    parts.push({ text: snippet.text.slice(start, end), hit: true });
    at = end;
  }
  if (at < snippet.text.length) parts.push({ text: snippet.text.slice(at), hit: false });
  return (
    <>
      {parts.map((part, i) =>
        part.hit ? (
          <mark key={i} style={{ padding: 0, background: 'var(--mantine-color-yellow-2)', color: 'inherit' }}>
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * What a Contains filter on the column should hold: the matched part of a value found in it (its
 * own case and accents, so the grid finds the same rows), else the query.
 */
function containsValue(group: SearchGroup, columnKey: string, query: string): string {
  const hit = group.sampleHits.find((h) => h.columnKey === columnKey);
  const first = hit?.snippet.highlights[0];
  if (!hit || !first) return query.trim();
  const text = hit.snippet.text.slice(first[0], first[1]);
  return text || query.trim();
}

/** The link to the table's grid, filtered on the column with 'Contains'. */
function ColumnLink({
  group,
  columnKey,
  label,
  query,
  onFollow,
}: {
  group: SearchGroup;
  columnKey: string;
  label: string;
  query: string;
  onFollow: () => void;
}) {
  const filter = encodeFilterGroups([
    {
      filters: [
        { columnKey, operator: 'Contains', value: containsValue(group, columnKey, query), conditionOperator: 'Or' },
      ],
    },
  ]);
  const props = { [RESULT_ITEM]: '', onClick: onFollow, size: 'sm' as const };
  if (group.tableType === 'IntegrationDataset') {
    const search = { dataset: group.tableName, filter };
    return (
      <Anchor
        {...props}
        renderRoot={(root) => <Link {...root} to="/integrations/$id" params={{ id: group.groupId }} search={search} />}
      >
        {label}
      </Anchor>
    );
  }
  if (group.tableType === 'StaticTable') {
    return (
      <Anchor
        {...props}
        renderRoot={(root) => <Link {...root} to="/tables/$id" params={{ id: group.tableId }} search={{ filter }} />}
      >
        {label}
      </Anchor>
    );
  }
  return (
    <Anchor {...props} renderRoot={(root) => <Link {...root} to="/models/$id" params={{ id: group.groupId }} />}>
      {label}
    </Anchor>
  );
}

interface ResultsProps {
  query: string;
  data: SearchResponse | undefined;
  loading: boolean;
  error: unknown;
  onFollow: () => void;
}

/** The panel under the search box: a message, or the hits grouped by dataset, then table. */
export function SearchResults({ query, data, loading, error, onFollow }: ResultsProps) {
  const trimmed = query.trim();
  if (trimmed.length < SEARCH_MIN_QUERY_LENGTH) {
    return (
      <Text c="dimmed" size="sm">
        {SEARCH_MESSAGES.waiting}
      </Text>
    );
  }
  if (error) return <Alert color="red">{errorMessage(error)}</Alert>;
  if (!data) {
    return (
      <Center py="sm">
        <Loader size="sm" aria-label="Searching" />
      </Center>
    );
  }
  const lagging = data.indexing.pending > 0 && (
    <Text size="xs" c="orange.8">
      {SEARCH_MESSAGES.lagging}
    </Text>
  );
  if (data.groups.length === 0) {
    return (
      <Stack gap={4}>
        <Text size="sm">{SEARCH_MESSAGES.noResults(data.query)}</Text>
        {lagging}
      </Stack>
    );
  }
  // Datasets in the order of their first (largest) table.
  const datasets = new Map<string, { name: string; groups: SearchGroup[] }>();
  for (const group of data.groups) {
    const key = `${group.tableType}:${group.groupId}`;
    const entry = datasets.get(key) ?? { name: group.groupName, groups: [] };
    entry.groups.push(group);
    datasets.set(key, entry);
  }
  return (
    <Stack gap="sm" aria-busy={loading}>
      <Text size="sm" fw={500}>
        {SEARCH_MESSAGES.found(data.totalHits)}
      </Text>
      {!data.complete && (
        <Text size="xs" c="dimmed">
          {SEARCH_MESSAGES.partial}
        </Text>
      )}
      {lagging}
      {[...datasets].map(([key, dataset]) => (
        <Stack key={key} gap={6} role="group" aria-label={dataset.name}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {dataset.name}
          </Text>
          {dataset.groups.map((group) => (
            <Box key={group.value} pl="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600} truncate>
                  {group.tableName}
                </Text>
                <Badge size="sm" variant="light" aria-label={`${group.count} matches`}>
                  {group.count.toLocaleString('en-US')}
                </Badge>
              </Group>
              <Group gap={8} mt={2} wrap="wrap">
                {group.columns.map((column) => (
                  <ColumnLink
                    key={column.columnKey}
                    group={group}
                    columnKey={column.columnKey}
                    label={`${column.columnName} (${column.count.toLocaleString('en-US')})`}
                    query={trimmed}
                    onFollow={onFollow}
                  />
                ))}
              </Group>
              <Stack gap={0} mt={4}>
                {group.sampleHits.map((hit) => (
                  <Text key={`${hit.columnKey}:${hit.value}`} size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                    <Text span size="xs" fw={500} c="dark">
                      {hit.columnName}:
                    </Text>{' '}
                    <Highlighted snippet={hit.snippet} />
                  </Text>
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
