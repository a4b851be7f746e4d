import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages';
import type { MemberRole } from '../../../shared/roles';
import { isValidEmail } from '../../../shared/validation';
import { ValidatedInput } from '../../components/validated-input';
import { trpc } from '../../trpc';
import { RoleSelect } from './role-select';
import { Dialog } from '../../components/dialog';

/**
 * Invites a person by e-mail with a role (read only unless chosen otherwise), offering only the
 * roles the caller may give (`choices`: no 'Owner' for an admin).
 */
export function InviteDialog({
  opened,
  onClose,
  choices,
}: {
  opened: boolean;
  onClose: () => void;
  choices: readonly MemberRole[];
}) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<MemberRole>('read_only');
  const utils = trpc.useUtils();
  const invite = trpc.accounts.invite.useMutation({
    onSuccess: async () => {
      await utils.accounts.get.invalidate();
      close();
    },
  });
  const close = () => {
    setEmail('');
    setName('');
    setRole('read_only');
    onClose();
  };
  const valid = isValidEmail(email);
  return (
    <Dialog opened={opened} onClose={close} title="Invite new user" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) invite.mutate({ email, name, roles: [role] });
        }}
      >
        <Stack>
          <ValidatedInput
            label="Email"
            type="email"
            value={email}
            onChange={setEmail}
            validate={(v) => (isValidEmail(v) ? null : MESSAGES.invalidEmail)}
            data-autofocus
          />
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <RoleSelect
            label="Role"
            description={choices.includes('owner') ? undefined : 'Only owners can invite an owner.'}
            value={role}
            onChange={setRole}
            choices={choices}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid} loading={invite.isPending}>
              Send invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
