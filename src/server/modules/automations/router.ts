import {
  addStepInputSchema,
  moveStepInputSchema,
  renameStepInputSchema,
  setStepInputInputSchema,
  setStepIntegrationInputSchema,
  setStepPolicyInputSchema,
  updateAutomationInputSchema,
} from '../../../shared/automations-api';
import { definitionRefSchema, stepRefSchema } from '../../../shared/automation-refs';
import { createAutomationSchema } from '../../../shared/automations';
import { accountProcedure, router } from '../../trpc/trpc';

/**
 * Definitions and their steps (Automations list, Configure, Settings). Every mutation that changes
 * a definition answers the whole definition; addStep adds the new step's id (stepId).
 */
export const automationsRouter = router({
  list: accountProcedure.query(({ ctx }) => ctx.services.automations.list(ctx.account)),
  create: accountProcedure
    .input(createAutomationSchema)
    .mutation(({ ctx, input }) => ctx.services.automations.create(ctx.account, input)),
  get: accountProcedure
    .input(definitionRefSchema)
    .query(({ ctx, input }) => ctx.services.automations.get(ctx.account, input.id)),
  update: accountProcedure
    .input(updateAutomationInputSchema)
    .mutation(({ ctx, input }) => ctx.services.automations.update(ctx.account, input.id, input)),
  remove: accountProcedure
    .input(definitionRefSchema)
    .mutation(({ ctx, input }) => ctx.services.automations.remove(ctx.account, input.id)),
  stepKinds: accountProcedure.query(({ ctx }) => ctx.services.automations.stepKinds()),
  addStep: accountProcedure.input(addStepInputSchema).mutation(async ({ ctx, input }) => {
    const { id, ...step } = input;
    const { definition, stepId } = await ctx.services.automations.addStep(ctx.account, id, step);
    return { ...definition, stepId };
  }),
  removeStep: accountProcedure
    .input(stepRefSchema)
    .mutation(({ ctx, input }) => ctx.services.automations.removeStep(ctx.account, input.id, input.stepId)),
  renameStep: accountProcedure
    .input(renameStepInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.automations.renameStep(ctx.account, input.id, input.stepId, input.value),
    ),
  setStepIntegration: accountProcedure
    .input(setStepIntegrationInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.automations.setStepIntegration(ctx.account, input.id, input.stepId, input.value),
    ),
  setStepInput: accountProcedure
    .input(setStepInputInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.automations.setStepInput(ctx.account, input.id, input.stepId, input.input, input.value),
    ),
  moveStep: accountProcedure
    .input(moveStepInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.automations.moveStep(ctx.account, input.id, input.stepId, input.position),
    ),
  setStepPolicy: accountProcedure.input(setStepPolicyInputSchema).mutation(({ ctx, input }) => {
    const { id, stepId, ...patch } = input;
    return ctx.services.automations.setStepPolicy(ctx.account, id, stepId, patch);
  }),
  inputOptions: accountProcedure
    .input(stepRefSchema)
    .query(({ ctx, input }) => ctx.services.automations.inputOptions(ctx.account, input.id, input.stepId)),
  stepPreview: accountProcedure
    .input(stepRefSchema)
    .query(({ ctx, input }) => ctx.services.automations.stepPreview(ctx.account, input.id, input.stepId)),
  previewInitialData: accountProcedure
    .input(definitionRefSchema)
    .query(({ ctx, input }) => ctx.services.automations.previewInitialData(ctx.account, input.id)),
});
