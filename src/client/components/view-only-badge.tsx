import { Badge, Tooltip } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';

/**
 * The mark a read_only member sees in a data area's header: the page is in view mode, and why.
 * `reason` names what is withheld when it is not the whole page (e.g. an owner-only action).
 */
export function ViewOnlyBadge({
  reason = 'Your role in this account lets you view, not change.',
}: {
  reason?: string;
}) {
  return (
    <Tooltip label={reason} withArrow>
      <Badge variant="light" color="gray" leftSection={<IconEye size={14} aria-hidden />} tabIndex={0}>
        View only
      </Badge>
    </Tooltip>
  );
}
