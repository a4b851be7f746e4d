import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileDescription, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useId, useRef, type ReactNode } from 'react';
import type { ToolbarAction } from '../responsive-toolbar';
import type { GridQuery } from './types';

type Format = 'csv' | 'parquet';

const FORMATS: { format: Format; label: string; icon: ReactNode }[] = [
  { format: 'csv', label: 'CSV', icon: <IconFileTypeCsv size={14} /> },
  { format: 'parquet', label: 'Parquet', icon: <IconFileSpreadsheet size={14} /> },
];

/**
 * Download as CSV or Parquet with the grid's filters and sort, as a toolbar action: the Download
 * menu inline, or its formats under 'Download' in the toolbar's '…' menu on a phone. `frame` (the
 * form and frame that do the download) is rendered once, wherever the action shows.
 *
 * A plain form post, so the browser streams the file to disk (nothing is held in page memory). It
 * targets a hidden frame: the file downloads from there, and an error answer lands there too
 * instead of replacing the app, where it is read and shown.
 *
 * With `onSaveReport`, 'Save as report…' follows the formats: a report on the Reports page,
 * generated on the server from what Download would send.
 */
export function useDownloadAction(
  url: string | undefined,
  query: GridQuery,
  filtered: boolean,
  onSaveReport?: (query: GridQuery) => void,
): { action: ToolbarAction | null; frame: ReactNode } {
  const frameName = `grid-download-${useId().replace(/[^\w-]/g, '')}`;
  const form = useRef<HTMLFormElement>(null);
  const format = useRef<HTMLInputElement>(null);

  const download = (chosen: Format) => {
    if (!form.current || !format.current) return;
    format.current.value = chosen;
    form.current.submit();
  };

  const showError = (frame: HTMLIFrameElement) => {
    let text = '';
    try {
      text = frame.contentDocument?.body?.textContent?.trim() ?? '';
    } catch {
      return; // Not readable (another origin): nothing to show.
    }
    if (!text) return; // The blank frame's own load, or a download that left the frame empty.
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // Not JSON: show the text as it is.
    }
    notifications.show({ color: 'red', title: 'Download failed', message });
  };

  if (!url) return { action: null, frame: null };
  const rows = filtered ? 'Rows matching the filters' : 'All rows';
  const action: ToolbarAction = {
    key: 'download',
    label: `Download (${rows.toLowerCase()})`,
    inline: (
      <Menu shadow="md" position="bottom-start">
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconDownload size={14} />}>
            Download
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{rows}</Menu.Label>
          {FORMATS.map((f) => (
            <Menu.Item key={f.format} leftSection={f.icon} onClick={() => download(f.format)}>
              {f.label}
            </Menu.Item>
          ))}
          {onSaveReport && (
            <>
              <Menu.Divider />
              <Menu.Item leftSection={<IconFileDescription size={14} />} onClick={() => onSaveReport(query)}>
                Save as report…
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    ),
    items: [
      ...FORMATS.map((f) => ({
        key: f.format,
        label: `${f.label} file`,
        icon: f.icon,
        onClick: () => download(f.format),
      })),
      ...(onSaveReport
        ? [
            {
              key: 'save-report',
              label: 'Save as report…',
              icon: <IconFileDescription size={14} />,
              onClick: () => onSaveReport(query),
            },
          ]
        : []),
    ],
  };
  const frame = (
    <>
      <form ref={form} method="post" action={url} target={frameName} hidden>
        <input ref={format} type="hidden" name="format" defaultValue="csv" />
        <input type="hidden" name="filterGroups" value={JSON.stringify(query.filterGroups)} readOnly />
        <input type="hidden" name="sorting" value={JSON.stringify(query.sorting)} readOnly />
      </form>
      <iframe name={frameName} title="Download" hidden onLoad={(e) => showError(e.currentTarget)} />
    </>
  );
  return { action, frame };
}
