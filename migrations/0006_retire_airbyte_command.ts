import { sql, type Kysely } from 'kysely';

/**
 * The built-in 'Airbyte protocol' definition took the program to run from the account's
 * configuration. It is no longer listed nor creatable, and its integrations are served by a
 * connector that refuses every call with a message saying what to do and runs nothing
 * (RETIRED_COMMAND_KEY in connectors/registry.ts). Airbyte sources are now registered by the
 * operator (AIRBYTE_SOURCES), each with a definition of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE integration_definitions SET is_public = 0, connector_key = 'airbyte-command-retired'
            WHERE key = 'airbyte' AND is_custom = 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE integration_definitions SET is_public = 1, connector_key = 'airbyte'
            WHERE key = 'airbyte' AND is_custom = 0`.execute(db);
}
