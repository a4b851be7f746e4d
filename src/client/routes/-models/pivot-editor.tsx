import { Button, Checkbox, Divider, Group, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { Model } from '../../../shared/models';
import type { Pivot } from '../../../shared/pivots';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SidePanel } from '../../components/side-panel';
import {
  DELETE_PIVOT_PROMPT,
  filterMissesValue,
  moveItem,
  moveValue,
  normalizePivot,
  pivotableColumns,
  fieldProblem,
  removeValue,
  type PivotSection,
} from './pivot-draft';
import { PivotEditorSections } from './pivot-editor-sections';

export const VALUES_REQUIRED = 'Add a value: the pivot needs one to fill its columns.';

interface PivotEditorProps {
  opened: boolean;
  /** Changes at each opening, which starts again from the saved pivot. */
  session: number;
  /** The section to bring into view on opening. */
  focus: PivotSection | null;
  model: Model;
  pivot: Pivot;
  problems: Map<string, string>;
  onClose: () => void;
  onApply: (next: Pivot) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}

/**
 * The pivot editor, a side panel: Rows, Columns, Values (required with columns), Filters, the two
 * totals, Delete; Apply (or Enter) saves the whole pivot. Closing with changes asks first.
 */
export function PivotEditor({ opened, session, focus, model, pivot, problems, ...on }: PivotEditorProps) {
  const [draft, setDraft] = useState(pivot);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<'asking' | 'busy' | null>(null);
  // A new opening starts from the saved pivot (adjusting state while rendering, not in an effect).
  const [seen, setSeen] = useState(session);
  if (seen !== session) {
    setSeen(session);
    setDraft(pivot);
    setTried(false);
  }
  useEffect(() => {
    if (!opened || !focus) return;
    // After the panel's slide-in, so the section is there to scroll to.
    const timer = window.setTimeout(
      () => document.getElementById(`pivot-editor-${focus}`)?.scrollIntoView({ block: 'start' }),
      250,
    );
    return () => window.clearTimeout(timer);
  }, [opened, focus, session]);

  const columns = pivotableColumns(model);
  const valuesMissing = draft.columns.length > 0 && draft.values.length === 0;
  const filtersIncomplete = draft.filters.some(filterMissesValue);
  const dirty = JSON.stringify(draft) !== JSON.stringify(pivot);

  const apply = async () => {
    setTried(true);
    if (valuesMissing || filtersIncomplete) return;
    setSaving(true);
    try {
      await on.onApply(normalizePivot(draft));
      on.onClose();
    } catch {
      // The failure is shown by the model's mutation; the panel stays open with the changes.
    } finally {
      setSaving(false);
    }
  };

  return (
    <SidePanel opened={opened} onClose={on.onClose} title="Edit pivot" size={520} confirmClose={dirty}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        <PivotEditorSections
          draft={draft}
          columns={columns}
          problem={(section, index) => {
            const field = draft[section][index];
            return field ? fieldProblem(model, field.column, problems) : undefined;
          }}
          valuesError={tried && valuesMissing ? VALUES_REQUIRED : undefined}
          showFilterErrors={tried}
          onChange={setDraft}
          onMoveField={(section, from, to) =>
            setDraft((d) =>
              section === 'filters'
                ? { ...d, filters: moveItem(d.filters, from, to) }
                : { ...d, [section]: moveItem(d[section], from, to) },
            )
          }
          onMoveValue={(from, to) => setDraft((d) => moveValue(d, from, to))}
          onRemoveValue={(index) => setDraft((d) => removeValue(d, index))}
        />
        <Divider my="md" />
        <Stack gap="xs">
          <Checkbox
            label="Show totals for rows (if applicable)"
            checked={draft.showRowTotals}
            onChange={(e) => setDraft((d) => ({ ...d, showRowTotals: e.currentTarget.checked }))}
          />
          <Checkbox
            label="Show totals for columns (if applicable)"
            checked={draft.showColumnTotals}
            onChange={(e) => setDraft((d) => ({ ...d, showColumnTotals: e.currentTarget.checked }))}
          />
        </Stack>
        <Group
          justify="space-between"
          mt="lg"
          py="sm"
          style={{
            position: 'sticky',
            bottom: 0,
            background: 'var(--mantine-color-body)',
            borderTop: '1px solid var(--mantine-color-gray-2)',
            zIndex: 2,
          }}
        >
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => setDeleting('asking')}
          >
            Delete pivot
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={on.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Apply
            </Button>
          </Group>
        </Group>
      </form>
      <ConfirmDialog
        opened={deleting !== null}
        danger
        message={DELETE_PIVOT_PROMPT}
        loading={deleting === 'busy'}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          setDeleting('busy');
          on.onDelete().then(
            () => setDeleting(null),
            () => setDeleting(null),
          );
        }}
      />
    </SidePanel>
  );
}
