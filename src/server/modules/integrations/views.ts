/**
 * The Integration entity as responses show it: secrets masked, streams, recent runs, and the push
 * address (webhook token, incoming e-mail address) only to those who may write: the address is a
 * credential that writes data into the account.
 */
import type {
  DiscoveryStatus,
  Integration,
  IntegrationType,
  Run,
  ScheduleSettings,
  SyncFrequencyType,
  SyncStatus,
} from '../../../shared/integrations';
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import type { IntegrationDefinitionsTable, IntegrationDefinitionVersionsTable } from '../../db/schema';
import { maskConfiguration, type SecretBox } from './secrets';
import { parseJson, storedColumns, toDataset, type DatasetRow, type IntegrationRow } from './repo';

export const webhookPath = (token: string) => `/api/integrations/webhook/${token}`;

/** The settings part of a specification (what secrets are marked in). */
export function settingsSchemaOf(version: Pick<IntegrationDefinitionVersionsTable, 'specification'>): unknown {
  return parseJson<{ settings?: unknown }>(version.specification, {}).settings ?? {};
}

export function toIntegration(
  row: IntegrationRow,
  definition: Pick<IntegrationDefinitionsTable, 'name' | 'type' | 'icon'>,
  version: Pick<IntegrationDefinitionVersionsTable, 'specification'>,
  datasets: DatasetRow[],
  runs: Run[],
  box: SecretBox,
  emailDomain: string,
  viewer: { seesAddress: boolean },
): Integration {
  const token = viewer.seesAddress && row.webhook_token_encrypted ? box.decrypt(row.webhook_token_encrypted) : null;
  const discoveryStatus = row.discovery_status as DiscoveryStatus;
  const streams = datasets.map((d) => {
    const dataset = toDataset(d);
    return {
      id: dataset.id,
      name: dataset.name,
      selectedSyncType: dataset.syncType,
      syncOptions: dataset.syncOptions,
      selectedIngestionType: dataset.dataIngestionType,
      ingestionOptions: dataset.ingestionOptions,
      selectedProperties: dataset.selectedProperties,
      hasData: storedColumns(d).length > 0,
      isSelected: dataset.isSelected,
    };
  });
  return {
    id: row.id,
    name: row.name,
    icon: definition.icon,
    definitionName: definition.name,
    integrationDefinitionId: row.definition_id,
    integrationDefinitionVersionId: row.definition_version_id,
    type: definition.type as IntegrationType,
    syncStatus: row.sync_status as SyncStatus,
    syncFrequencyType: row.sync_frequency_type as SyncFrequencyType,
    syncFrequency: row.sync_pattern ? { pattern: row.sync_pattern, timeZone: 'UTC' } : null,
    schedule: parseJson<ScheduleSettings>(row.schedule, { type: 'Manual' }),
    nextRunAt: row.next_run_at,
    requiresReAuthentication: row.requires_reauthentication === 1,
    recentRuns: runs,
    datasets: streams.map((s) => ({ id: s.id, name: s.name, hasData: s.hasData })),
    streams,
    discovery: {
      status: discoveryStatus,
      message:
        discoveryStatus === 'Processing'
          ? INTEGRATION_MESSAGES.discovering
          : discoveryStatus === 'Error'
            ? `${INTEGRATION_MESSAGES.discoveryFailed}${row.discovery_error ? `: ${row.discovery_error}` : ''}`
            : null,
    },
    configuration: maskConfiguration(
      settingsSchemaOf(version),
      parseJson<Record<string, unknown>>(row.configuration, {}),
    ),
    schemaName: row.schema_name,
    webhookToken: token,
    webhookUrl: token ? webhookPath(token) : null,
    emailAddress: viewer.seesAddress && row.email_address ? `${row.email_address}@${emailDomain}` : null,
    createdAt: row.created_at,
  };
}
