/** Integration definitions as the admin area sees them: every one, with its use; checked and added. */
import type { AdminDefinition, SpecificationCheck } from '../../../shared/admin';
import type { CreateDefinitionRequest, IntegrationDefinition, IntegrationType } from '../../../shared/integrations';
import type { Deps, UserContext } from '../../context';
import { createCustomDefinition } from '../integrations/definitions';
import { checkSpecification } from '../integrations/specification';

export function createAdminDefinitions({ db, clock }: Deps) {
  return {
    /** Built-in, operator and custom definitions of every account, by name, with how many integrations use each. */
    async listDefinitions(): Promise<AdminDefinition[]> {
      const rows = await db
        .selectFrom('integration_definitions')
        .leftJoin('accounts', 'accounts.id', 'integration_definitions.account_id')
        .select([
          'integration_definitions.id',
          'integration_definitions.name',
          'integration_definitions.type',
          'integration_definitions.is_custom',
          'integration_definitions.is_public',
          'integration_definitions.created_at',
          'accounts.name as account_name',
          (eb) =>
            eb
              .selectFrom('integrations')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('integrations.definition_id', '=', 'integration_definitions.id')
              .as('used_by'),
          (eb) =>
            eb
              .selectFrom('integration_definition_versions')
              .select((e) => e.fn.max('version').as('v'))
              .whereRef('integration_definition_versions.definition_id', '=', 'integration_definitions.id')
              .as('version'),
        ])
        .orderBy('integration_definitions.name')
        .orderBy('integration_definitions.created_at')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        type: r.type as IntegrationType,
        isCustom: r.is_custom === 1,
        isPublic: r.is_public === 1,
        accountName: r.is_public === 1 ? null : r.account_name,
        version: Number(r.version ?? 1),
        usedBy: Number(r.used_by ?? 0),
        createdAt: r.created_at,
      }));
    },

    /** The editor's live check: the same check every write of a definition makes. */
    validateSpecification(specification: string): SpecificationCheck {
      const { valid, problems } = checkSpecification(specification);
      return { valid, problems };
    },

    /**
     * Adds a custom definition. A public one is offered to every account; otherwise it is offered in
     * the admin's current account, as POST /api/integration_definitions does.
     */
    async createDefinition(ctx: UserContext, input: CreateDefinitionRequest): Promise<IntegrationDefinition['id']> {
      return createCustomDefinition(db, ctx.user.current_account_id, input, clock());
    },
  };
}
