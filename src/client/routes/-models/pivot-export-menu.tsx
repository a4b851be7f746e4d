import { Button, Menu, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileDescription, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import type { ToolbarAction } from '../../components/responsive-toolbar';

export const EXPORT_BLOCKED_HINT = 'Add rows, columns or values to the pivot to export it.';

/** GET /api/models/{id}/export/pivot for the version on screen. */
export function pivotExportUrl(modelId: string, versionId: string, pivotKey: string, format: 'csv' | 'xlsx'): string {
  const query = new URLSearchParams({ pivotKey, format, versionId });
  return `/api/models/${encodeURIComponent(modelId)}/export/pivot?${query.toString()}`;
}

/**
 * 'Export pivot' as a toolbar action: plain links to the export, CSV or XLSX, disabled while the
 * pivot is empty (spec §5); inline a menu, on a phone its links under 'Export pivot' in the
 * toolbar's '…' menu. They open in a hidden frame (`frame`, rendered once): the file downloads from
 * there, and an error answer lands there instead of replacing the app, where it is read and shown.
 */
export function usePivotExportAction({
  modelId,
  versionId,
  pivotKey,
  blocked,
  onSaveReport,
}: {
  modelId: string;
  versionId: string;
  pivotKey: string;
  blocked: boolean;
  /** Adds 'Save as report…' after the formats (a writer's report on the Reports page). */
  onSaveReport?: () => void;
}): { action: ToolbarAction; frame: ReactNode } {
  const frameName = `pivot-export-${useId().replace(/[^\w-]/g, '')}`;
  const showError = (frame: HTMLIFrameElement) => {
    let text = '';
    try {
      text = frame.contentDocument?.body?.textContent?.trim() ?? '';
    } catch {
      return; // Not readable (another origin): nothing to show.
    }
    if (!text) return;
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // Not JSON: show the text as it is.
    }
    notifications.show({ color: 'red', title: 'Export failed', message });
  };
  const frame = <iframe name={frameName} title="Export" hidden onLoad={(e) => showError(e.currentTarget)} />;

  if (blocked) {
    return {
      frame,
      action: {
        key: 'export',
        label: 'Export pivot',
        icon: <IconDownload size={14} />,
        disabled: true,
        reason: EXPORT_BLOCKED_HINT,
        inline: (
          <Tooltip label={EXPORT_BLOCKED_HINT}>
            <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} data-disabled aria-disabled>
              Export pivot
            </Button>
          </Tooltip>
        ),
      },
    };
  }
  const item = (format: 'csv' | 'xlsx', label: string, icon: ReactNode) => (
    <Menu.Item
      component="a"
      href={pivotExportUrl(modelId, versionId, pivotKey, format)}
      target={frameName}
      leftSection={icon}
    >
      {label}
    </Menu.Item>
  );
  const formats = [
    { format: 'csv' as const, label: 'CSV', icon: <IconFileTypeCsv size={14} /> },
    { format: 'xlsx' as const, label: 'XLSX', icon: <IconFileSpreadsheet size={14} /> },
  ];
  return {
    frame,
    action: {
      key: 'export',
      label: 'Export pivot',
      inline: (
        <Menu shadow="md" position="bottom-start">
          <Menu.Target>
            <Button size="xs" variant="default" leftSection={<IconDownload size={14} />}>
              Export pivot
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {formats.map((f) => item(f.format, f.label, f.icon))}
            {onSaveReport && (
              <>
                <Menu.Divider />
                <Menu.Item leftSection={<IconFileDescription size={14} />} onClick={onSaveReport}>
                  Save as report…
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
      items: [
        ...formats.map((f) => ({
          key: f.format,
          label: `${f.label} file`,
          menu: item(f.format, `${f.label} file`, f.icon),
        })),
        ...(onSaveReport
          ? [
              {
                key: 'save-report',
                label: 'Save as report…',
                icon: <IconFileDescription size={14} />,
                onClick: onSaveReport,
              },
            ]
          : []),
      ],
    },
  };
}
