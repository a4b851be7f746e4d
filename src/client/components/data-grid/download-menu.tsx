import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useId, useRef } from 'react';
import type { GridQuery } from './types';

type Format = 'csv' | 'parquet';

/**
 * Download as CSV or Parquet with the grid's filters and sort. A plain form post, so the browser
 * streams the file to disk (nothing is held in page memory). It targets a hidden frame: the file
 * downloads from there, and an error answer lands there too instead of replacing the app, where it
 * is read and shown.
 */
export function DownloadMenu({ url, query, filtered }: { url: string; query: GridQuery; filtered: boolean }) {
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

  return (
    <>
      <Menu shadow="md" position="bottom-start">
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconDownload size={14} />}>
            Download
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{filtered ? 'Rows matching the filters' : 'All rows'}</Menu.Label>
          <Menu.Item leftSection={<IconFileTypeCsv size={14} />} onClick={() => download('csv')}>
            CSV
          </Menu.Item>
          <Menu.Item leftSection={<IconFileSpreadsheet size={14} />} onClick={() => download('parquet')}>
            Parquet
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <form ref={form} method="post" action={url} target={frameName} hidden>
        <input ref={format} type="hidden" name="format" defaultValue="csv" />
        <input type="hidden" name="filterGroups" value={JSON.stringify(query.filterGroups)} readOnly />
        <input type="hidden" name="sorting" value={JSON.stringify(query.sorting)} readOnly />
      </form>
      <iframe name={frameName} title="Download" hidden onLoad={(e) => showError(e.currentTarget)} />
    </>
  );
}
