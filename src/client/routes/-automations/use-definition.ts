import type { AutomationDefinition } from '../../../shared/automations';
import { trpc } from '../../trpc';

/**
 * Every definition change answers the whole definition: it replaces the cached one, the list
 * (name, error) is read again. A failure shows the server's message in the app's error snackbar (spec §8).
 */
export function useDefinitionChanged() {
  const utils = trpc.useUtils();
  return {
    onSuccess: async (saved: AutomationDefinition) => {
      utils.automations.get.setData({ id: saved.id }, saved);
      // Previews and options depend on the steps before them: read them again.
      await Promise.all([
        utils.automations.list.invalidate(),
        utils.automations.stepPreview.invalidate(),
        utils.automations.inputOptions.invalidate(),
      ]);
    },
  };
}
