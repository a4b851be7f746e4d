/**
 * What Configure shows beside a step, without side effects: the values its inputs may take, the
 * trigger's sample data, and a preview of what the step would read or send.
 */
import type { InputOption, InputValue, StepInputOptions, StepPreview } from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import { badInput } from '../../errors';
import type { CoreServices } from '../../services';
import { byName, type DefinitionAccess } from './definition-access';
import { integrationRefs } from './repo';
import type { StepEnv } from './step-kind';
import { resolveInputs } from './templates';
import { TRIGGER_FIELDS, asInputValues, sampleTriggerData } from './trigger-data';
import { AUTOMATION_FIELDS, RUN_FIELDS, VALIDATION_MESSAGES, stepError } from './validation';
import { configuredStep, definitionView, triggerOf } from './view';

export function createStepOptionsService(deps: Deps, core: CoreServices, access: DefinitionAccess) {
  const { db, clock } = deps;
  const { kindOf, viewContext, fresh, stepInContext } = access;

  const env = (ctx: AccountContext): StepEnv => ({ deps, services: core, ctx });

  return {
    /** The integrations the step may use, its inputs' allowed values and the placeholders its text inputs may hold. */
    async inputOptions(ctx: AccountContext, id: string, stepId: string): Promise<StepInputOptions> {
      const { row, steps, index, step } = await stepInContext(ctx, id, stepId);
      const kind = kindOf(configuredStep(step).kind);
      const integrations = await integrationRefs(db, ctx.accountId);
      const connectors = kind?.integrationConnectors ?? null;
      const integrationOptions: InputOption[] =
        connectors === null
          ? []
          : [...integrations.values()]
              .filter((i) => connectors.includes(i.connectorKey))
              .sort(byName)
              .map((i) => ({ value: i.id, label: i.name }));
      const inputs = kind ? await kind.inputOptions(env(ctx), configuredStep(step)) : {};
      const trigger = triggerOf(row);
      const placeholders: InputOption[] = [
        ...TRIGGER_FIELDS[trigger.type].map((f) => ({
          value: `{{trigger.${f.name}}}`,
          label: `Trigger: ${f.label}`,
          group: 'Trigger',
        })),
        ...steps.slice(0, index).flatMap((earlier) =>
          (kindOf(configuredStep(earlier).kind)?.outputs ?? []).map((o) => ({
            value: `{{steps.${earlier.id}.${o.name}}}`,
            label: `${earlier.name}: ${o.label}`,
            group: 'Steps',
          })),
        ),
        ...RUN_FIELDS.map((f) => ({ value: `{{run.${f.name}}}`, label: f.label, group: 'Run' })),
        ...AUTOMATION_FIELDS.map((f) => ({ value: `{{automation.${f.name}}}`, label: f.label, group: 'Automation' })),
      ];
      return { integrations: integrationOptions, inputs, placeholders };
    },

    /** The trigger's data as a run would get it now (GET .../preview-initial-data). */
    async previewInitialData(ctx: AccountContext, id: string): Promise<Record<string, InputValue>> {
      const definition = await fresh(ctx, id);
      return asInputValues(await sampleTriggerData(deps, ctx, definition));
    },

    /**
     * What the step would read or send, without side effects, as the caller: placeholders resolved
     * against the sample trigger data; earlier steps' outputs are not known before a run and are
     * reported unresolved.
     */
    async stepPreview(ctx: AccountContext, id: string, stepId: string): Promise<StepPreview> {
      const { row, steps, index, step } = await stepInContext(ctx, id, stepId);
      const configured = configuredStep(step);
      const kind = kindOf(configured.kind);
      if (!kind) throw badInput(VALIDATION_MESSAGES.kindUnavailable);
      const context = await viewContext(ctx.accountId);
      const problem = stepError(configured, index, {
        trigger: triggerOf(row),
        steps: steps.map(configuredStep),
        integrations: context.integrations,
        kindOf,
      });
      if (problem) throw badInput(problem);
      const definition = definitionView(row, steps, null, context);
      const trigger = asInputValues(await sampleTriggerData(deps, ctx, definition));
      const scope = {
        trigger,
        steps: {},
        run: { id: 'preview', number: row.run_counter + 1, startedAt: clock().toISOString() },
        automation: { id: row.id, name: row.name },
      };
      const resolved = resolveInputs(configured.inputs, scope);
      const preview = await kind.preview(env(ctx), { ...configured, inputs: resolved.inputs });
      const unresolved = [...new Set([...(preview.unresolved ?? []), ...resolved.unresolved])];
      return unresolved.length > 0 ? { ...preview, unresolved } : preview;
    },
  };
}
