import { Tabs } from '@mantine/core';
import type { Model } from '../../../shared/models';
import { SidePanel } from '../../components/side-panel';
import { AddColumnView } from './add-column-view';
import { EditColumnsView } from './edit-columns-view';
import { RelationshipsView } from './relationships-view';
import type { ModelHandle } from './use-model';

export type ColumnsPanelView = 'columns' | 'relationships' | 'add';

/** 'Columns and relationships': the model editor's three views in a side panel. */
export function ColumnsPanel({
  model,
  handle,
  view,
  onView,
  onClose,
}: {
  model: Model;
  handle: ModelHandle;
  view: ColumnsPanelView | null;
  onView: (view: ColumnsPanelView) => void;
  onClose: () => void;
}) {
  return (
    <SidePanel opened={view !== null} onClose={onClose} title="Columns and relationships" size={640}>
      <Tabs value={view} onChange={(v) => v && onView(v as ColumnsPanelView)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="columns">Edit existing columns</Tabs.Tab>
          <Tabs.Tab value="relationships">Data relationships</Tabs.Tab>
          <Tabs.Tab value="add">Add column</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="columns">
          <EditColumnsView model={model} handle={handle} />
        </Tabs.Panel>
        <Tabs.Panel value="relationships">
          <RelationshipsView model={model} handle={handle} />
        </Tabs.Panel>
        <Tabs.Panel value="add">
          <AddColumnView model={model} handle={handle} />
        </Tabs.Panel>
      </Tabs>
    </SidePanel>
  );
}
