import { Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { CHAT_MESSAGES, type ChatResult } from '../../../shared/chat';
import { DataGrid } from '../../components/data-grid/data-grid';
import type { GridQuery } from '../../components/data-grid/types';
import { AUTOFOCUS, Dialog } from '../../components/dialog';
import { resultColumns, resultGridSource } from './result-grid-source';

const EMPTY_QUERY: GridQuery = { filterGroups: [], sorting: [] };

/** A reply's result in the data grid (its kept rows, filtered and sorted in the browser). */
export function ResultGridDialog({ result, onClose }: { result: ChatResult | null; onClose: () => void }) {
  return (
    <Dialog opened={result !== null} onClose={onClose} title="Result" size="90rem" fullScreen={false}>
      {result && <ResultGrid result={result} />}
    </Dialog>
  );
}

function ResultGrid({ result }: { result: ChatResult }) {
  const columns = useMemo(() => resultColumns(result), [result]);
  const source = useMemo(() => resultGridSource(result), [result]);
  const [query, setQuery] = useState<GridQuery>(EMPTY_QUERY);
  return (
    <>
      {/* Opens focused here, not on the grid's 'Go to column' (whose list would open over the grid). */}
      <Text size="sm" c="dimmed" mb="xs" tabIndex={-1} {...AUTOFOCUS} style={{ outline: 'none' }}>
        {CHAT_MESSAGES.rowCount(result.rows.length, result.rowCount)}
        {result.rows.length < result.rowCount && ' — download the result for every row.'}
      </Text>
      <DataGrid columns={columns} source={source} query={query} onQueryChange={setQuery} />
    </>
  );
}
