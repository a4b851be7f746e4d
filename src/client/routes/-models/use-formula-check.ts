import { useDebouncedValue } from '@mantine/hooks';
import type { ColumnType } from '../../../shared/tables';
import type { Model } from '../../../shared/models';
import { errorMessage } from '../../lib/error-message';
import { trpc } from '../../trpc';

const CHECK_DEBOUNCE_MS = 300;

export type FormulaCheck =
  | { status: 'empty'; reason: string }
  | { status: 'checking'; reason: string }
  | { status: 'valid'; type: ColumnType | null }
  | { status: 'invalid'; reason: string; start: number | null; end: number | null };

/**
 * The formula as typed (columns by name), checked by the server as the user types
 * (validate-function): in the model's scope, as the column `columnKey` or a new one. Until the
 * answer for exactly this text is in, the formula counts as not checked, so Add and Save stay off.
 */
export function useFormulaCheck(model: Model, value: string, columnKey?: string): FormulaCheck {
  const [typed] = useDebouncedValue(value, CHECK_DEBOUNCE_MS);
  const query = trpc.models.validateFunction.useQuery(
    { versionId: model.versionId, function: typed, columnKey: columnKey ?? null },
    { enabled: typed.trim() !== '', placeholderData: (previous) => previous },
  );
  if (value.trim() === '') return { status: 'empty', reason: 'Enter a formula.' };
  if (query.isError) return { status: 'invalid', reason: errorMessage(query.error), start: null, end: null };
  if (typed !== value || !query.data || query.isPlaceholderData) {
    return { status: 'checking', reason: 'Checking the formula…' };
  }
  const result = query.data;
  if (result.valid) return { status: 'valid', type: result.type };
  const message = result.message ?? 'The formula is not valid.';
  // Names and syntax errors say where; others (types) get the place added.
  const where = result.start !== null && !/position \d+/.test(message) ? ` (at position ${result.start + 1})` : '';
  return { status: 'invalid', reason: `${message}${where}`, start: result.start, end: result.end };
}

/** Why Add/Save is off for this check, in a few words beside the button (the problem itself shows in the box). */
export function formulaBlocker(check: FormulaCheck): string | null {
  switch (check.status) {
    case 'valid':
      return null;
    case 'invalid':
      return 'Fix the formula first.';
    default:
      return check.reason;
  }
}
