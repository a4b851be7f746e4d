import { Button, Group, Menu, ScrollArea, Tabs, TextInput } from '@mantine/core';
import { IconList, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { GRID } from './constants';

export interface Sheet {
  key: string;
  name: string;
}

/** Sheet tabs under the grid; past five sheets a list with 'Filter sheets' helps find one. */
export function SheetTabs({
  sheets,
  active,
  onChange,
  onAdd,
  addLabel = 'Add sheet',
}: {
  sheets: Sheet[];
  active: string;
  onChange: (key: string) => void;
  onAdd?: () => void;
  addLabel?: string;
}) {
  const [filter, setFilter] = useState('');
  const shown = sheets.filter((s) => s.name.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Group gap="xs" wrap="nowrap" mt={6}>
      {sheets.length > GRID.searchableAfter && (
        <Menu position="top-start" shadow="md" width={240} onClose={() => setFilter('')}>
          <Menu.Target>
            <Button size="compact-sm" variant="subtle" aria-label="All sheets" leftSection={<IconList size={14} />}>
              Sheets
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <TextInput
              size="xs"
              placeholder="Filter sheets"
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              mb={4}
            />
            <ScrollArea.Autosize mah={260}>
              {shown.map((s) => (
                <Menu.Item key={s.key} onClick={() => onChange(s.key)} fw={s.key === active ? 600 : 400}>
                  {s.name}
                </Menu.Item>
              ))}
            </ScrollArea.Autosize>
          </Menu.Dropdown>
        </Menu>
      )}
      <ScrollArea type="never" style={{ flex: 1 }}>
        <Tabs value={active} onChange={(key) => key && onChange(key)} variant="outline">
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {sheets.map((s) => (
              <Tabs.Tab key={s.key} value={s.key}>
                {s.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      {onAdd && (
        <Button size="compact-sm" variant="subtle" leftSection={<IconPlus size={14} />} onClick={onAdd}>
          {addLabel}
        </Button>
      )}
    </Group>
  );
}
