import type { TestApp } from '../../helpers';
import { createIntegration, definitionNamed, ok, type Integration } from '../helpers';
import type { PostgresPeer } from '../peers/postgres';

/** A PostgreSQL integration over the peer's database, created and its datasets discovered. */
export async function postgresIntegration(
  t: TestApp,
  cookie: string,
  peer: PostgresPeer,
  options: { name: string; schemaName?: string; configuration?: Record<string, unknown> },
): Promise<Integration> {
  const definition = await definitionNamed(t, cookie, 'PostgreSQL');
  const created = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: options.name,
      schemaName: options.schemaName ?? options.name,
      configuration: {
        host: peer.host,
        port: peer.port,
        database: peer.database,
        username: peer.user,
        password: peer.password,
        ...options.configuration,
      },
    }),
    201,
  );
  await t.services.integrations.idle();
  return created;
}
