import { Select } from '@mantine/core';
import { MEMBER_ROLES, ROLE_LABELS, type MemberRole } from '../../../shared/roles';

export const ROLE_OPTIONS = MEMBER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** The member's strongest role, shown in the single-choice dropdown. */
export function primaryRole(roles: readonly string[]): MemberRole {
  return MEMBER_ROLES.find((r) => roles.includes(r)) ?? 'read_only';
}

export function rolesText(roles: readonly string[]): string {
  return roles.map((r) => ROLE_LABELS[r as MemberRole] ?? r).join(', ');
}

/** A single-role dropdown offering only `choices`: the roles the caller may give (grantableRoles). */
export function RoleSelect({
  value,
  onChange,
  choices,
  disabled,
  label,
  description,
  ariaLabel,
}: {
  value: MemberRole;
  onChange: (role: MemberRole) => void;
  choices: readonly MemberRole[];
  disabled?: boolean;
  label?: string;
  /** A line under the label, e.g. why a role is not offered. */
  description?: string;
  ariaLabel?: string;
}) {
  return (
    <Select
      data={ROLE_OPTIONS.filter((option) => choices.includes(option.value))}
      value={value}
      label={label}
      description={description}
      aria-label={ariaLabel}
      allowDeselect={false}
      disabled={disabled}
      w={label ? undefined : 150}
      size={label ? 'sm' : 'xs'}
      onChange={(next) => next && onChange(next as MemberRole)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
