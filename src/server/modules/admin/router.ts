import {
  adminAccountParamsSchema,
  adminSearchSchema,
  adminUserParamsSchema,
  setGlobalAdminSchema,
  validateSpecificationSchema,
} from '../../../shared/admin';
import { createDefinitionSchema } from '../../../shared/integrations';
import { adminProcedure, router } from '../../trpc/trpc';

export const adminRouter = router({
  searchUsers: adminProcedure
    .input(adminSearchSchema)
    .query(({ ctx, input }) => ctx.services.admin.searchUsers(ctx, input)),
  searchAccounts: adminProcedure
    .input(adminSearchSchema)
    .query(({ ctx, input }) => ctx.services.admin.searchAccounts(ctx, input)),

  user: adminProcedure
    .input(adminUserParamsSchema)
    .query(({ ctx, input }) => ctx.services.admin.getUser(ctx, input.userId)),
  signOutEverywhere: adminProcedure
    .input(adminUserParamsSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.signOutEverywhere(ctx, input.userId)),
  setGlobalAdmin: adminProcedure
    .input(setGlobalAdminSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.setGlobalAdmin(ctx, input)),

  account: adminProcedure
    .input(adminAccountParamsSchema)
    .query(({ ctx, input }) => ctx.services.admin.getAccount(ctx, input.accountId)),

  definitions: adminProcedure.query(({ ctx }) => ctx.services.admin.listDefinitions(ctx)),
  validateSpecification: adminProcedure
    .input(validateSpecificationSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.validateSpecification(ctx, input.specification)),
  createDefinition: adminProcedure
    .input(createDefinitionSchema)
    .mutation(({ ctx, input }) => ctx.services.admin.createDefinition(ctx, input)),
});
