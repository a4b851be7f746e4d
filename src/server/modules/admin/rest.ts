/**
 * The admin area's REST paths (the spec names none: these follow the app's /api/<area> pattern).
 * Signed-in callers reach the service, which answers 403 to anyone but a global admin.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  adminAccountDetailSchema,
  adminAccountParamsSchema,
  adminAccountSchema,
  adminDefinitionSchema,
  adminSearchSchema,
  adminUserDetailSchema,
  adminUserParamsSchema,
  adminUserSchema,
  setGlobalAdminBodySchema,
  signOutEverywhereAnswerSchema,
  specificationCheckSchema,
  validateSpecificationSchema,
} from '../../../shared/admin';
import { createDefinitionSchema } from '../../../shared/integrations';
import type { Deps } from '../../context';
import { endpoint } from '../../http/endpoint';
import type { Services } from '../../services';

const tag = 'Admin';
const FORBIDDEN = [403] as const;

export function registerAdminRest(app: FastifyInstance, deps: Deps, { admin }: Services): void {
  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/users',
      summary: 'Search users by e-mail or name (global admins)',
      tag,
      access: 'user',
      query: adminSearchSchema,
      answers: { 200: { description: 'Up to 50 users.', json: z.array(adminUserSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, query }) => admin.searchUsers(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/users/{userId}',
      summary: "A user's accounts and roles, live sessions and global roles (global admins)",
      tag,
      access: 'user',
      params: adminUserParamsSchema,
      answers: { 200: { description: 'The user.', json: adminUserDetailSchema } },
      errors: FORBIDDEN,
    },
    async ({ ctx, params }) => admin.getUser(ctx, params.userId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/admin/users/{userId}/sign-out-everywhere',
      summary: 'Revoke every session of a user (global admins)',
      tag,
      access: 'user',
      params: adminUserParamsSchema,
      answers: { 200: { description: 'How many sessions were revoked.', json: signOutEverywhereAnswerSchema } },
      errors: FORBIDDEN,
    },
    async ({ ctx, params }) => admin.signOutEverywhere(ctx, params.userId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'PUT',
      path: '/api/admin/users/{userId}/admin',
      summary: 'Grant or take the global admin role (global admins; the last admin keeps it)',
      tag,
      access: 'user',
      params: adminUserParamsSchema,
      body: setGlobalAdminBodySchema,
      answers: { 200: { description: 'The user afterwards.', json: adminUserDetailSchema } },
      errors: [403, 409],
    },
    async ({ ctx, params, body }) => admin.setGlobalAdmin(ctx, { userId: params.userId, admin: body.admin }),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/accounts',
      summary: 'Search accounts by name or exact id (global admins)',
      tag,
      access: 'user',
      query: adminSearchSchema,
      answers: { 200: { description: 'Up to 50 accounts.', json: z.array(adminAccountSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, query }) => admin.searchAccounts(ctx, query),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/accounts/{accountId}',
      summary: "An account's members, integrations, size on disk and last activity (global admins)",
      tag,
      access: 'user',
      params: adminAccountParamsSchema,
      answers: { 200: { description: 'The account.', json: adminAccountDetailSchema } },
      errors: FORBIDDEN,
    },
    async ({ ctx, params }) => admin.getAccount(ctx, params.accountId),
  );

  endpoint(
    app,
    deps,
    {
      method: 'GET',
      path: '/api/admin/integration_definitions',
      summary: 'Every integration definition with the number of integrations using it (global admins)',
      tag,
      access: 'user',
      answers: { 200: { description: 'The definitions, by name.', json: z.array(adminDefinitionSchema) } },
      errors: FORBIDDEN,
    },
    async ({ ctx }) => admin.listDefinitions(ctx),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/admin/integration_definitions/validate',
      summary: "Check a definition's specification text as a save would (global admins)",
      tag,
      access: 'user',
      body: validateSpecificationSchema,
      answers: { 200: { description: 'Whether it is valid, and its problems.', json: specificationCheckSchema } },
      errors: FORBIDDEN,
    },
    async ({ ctx, body }) => admin.validateSpecification(ctx, body.specification),
  );

  endpoint(
    app,
    deps,
    {
      method: 'POST',
      path: '/api/admin/integration_definitions',
      summary: 'Add a custom integration definition (global admins)',
      tag,
      access: 'user',
      body: createDefinitionSchema,
      answers: { 201: { description: 'The new definition.', json: z.object({ id: z.string() }) } },
      errors: FORBIDDEN,
    },
    async ({ ctx, body }) => admin.createDefinition(ctx, body),
  );
}
