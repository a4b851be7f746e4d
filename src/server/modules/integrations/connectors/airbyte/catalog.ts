/**
 * Airbyte CATALOG streams as datasets: json_schema properties become typed properties
 * (nullable unions like ["null", "string"] count as their non-null type; format date/date-time
 * and airbyte_type integer/timestamp refine them), source_defined_primary_key and
 * default_cursor_field become the key and cursor (top-level fields only), and supported_sync_modes
 * the sync types.
 */
import type { ColumnType } from '../../../../../shared/tables';
import { isRecord } from '../rest-api/config-values';
import type { DiscoveredDataset, DiscoveredProperty, IngestionType, SyncType } from '../types';

export type AirbyteStream = Record<string, unknown> & { name: string };

export function streamsOf(catalog: unknown): AirbyteStream[] {
  if (!isRecord(catalog) || !Array.isArray(catalog.streams)) return [];
  return catalog.streams.filter((s): s is AirbyteStream => isRecord(s) && typeof s.name === 'string');
}

export function columnTypeOfSchema(schema: unknown): { type: ColumnType; format?: string } {
  if (!isRecord(schema)) return { type: 'Text' };
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null');
  const type = types.length === 1 ? types[0] : undefined; // unions of several types load as text
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const airbyteType = typeof schema.airbyte_type === 'string' ? schema.airbyte_type : undefined;
  const described = (t: ColumnType) => ({
    type: t,
    ...(format || airbyteType ? { format: format ?? airbyteType } : {}),
  });
  switch (type) {
    case 'integer':
    case 'number':
      return described('Number');
    case 'boolean':
      return described('Boolean');
    case 'array':
      return described('Array');
    case 'object':
      return described('Json');
    case 'string':
      if (format === 'date') return described('Date');
      if (format === 'date-time' || airbyteType?.startsWith('timestamp')) return described('DateTime');
      return described('Text');
    default:
      return described('Text');
  }
}

/** Top-level field names of Airbyte field paths ([["id"], ["region"]] -> ["id", "region"]). */
function topLevelNames(paths: unknown): string[] {
  if (!Array.isArray(paths)) return [];
  return paths.flatMap((p) =>
    Array.isArray(p) && typeof p[0] === 'string' ? [p[0]] : typeof p === 'string' ? [p] : [],
  );
}

export function primaryKeyOf(stream: AirbyteStream): string[] {
  return topLevelNames(stream.source_defined_primary_key);
}

export function cursorOf(stream: AirbyteStream): string | null {
  const field = stream.default_cursor_field;
  return Array.isArray(field) && typeof field[0] === 'string' ? field[0] : null;
}

export function toDataset(stream: AirbyteStream): DiscoveredDataset {
  const schema = isRecord(stream.json_schema) ? stream.json_schema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const primaryKey = primaryKeyOf(stream);
  const cursorField = cursorOf(stream);
  const discovered = Object.entries(properties).map(([name, propertySchema]): DiscoveredProperty => {
    const property: DiscoveredProperty = {
      name,
      ...columnTypeOfSchema(propertySchema),
      isPrimaryKey: primaryKey.includes(name),
      isCursor: name === cursorField,
    };
    if (isRecord(propertySchema) && typeof propertySchema.description === 'string') {
      property.description = propertySchema.description;
    }
    return property;
  });
  const modes = Array.isArray(stream.supported_sync_modes) ? stream.supported_sync_modes : ['full_refresh'];
  const syncTypes: SyncType[] = [];
  if (modes.includes('full_refresh')) syncTypes.push('FullRefresh');
  if (modes.includes('incremental')) syncTypes.push('Incremental');
  const ingestion: IngestionType[] =
    primaryKey.length > 0 ? ['Overwrite', 'Append', 'AppendDedup'] : ['Overwrite', 'Append'];
  return {
    name: stream.name,
    properties: discovered,
    supportedSyncTypes: syncTypes.length > 0 ? syncTypes : ['FullRefresh'],
    supportedIngestionTypes: ingestion,
    primaryKey,
    cursorField,
  };
}
