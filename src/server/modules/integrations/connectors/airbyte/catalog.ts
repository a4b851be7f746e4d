/**
 * Airbyte CATALOG streams as datasets: json_schema properties become typed properties
 * stored in the format of their schema (formatOfSchema; nullable unions like ["null", "string"]
 * count as their non-null type), source_defined_primary_key and
 * default_cursor_field become the key and cursor (top-level fields only), and supported_sync_modes
 * the sync types. A stream that declares no properties is stored whole, one JSON column a record
 * (RAW_DATA_COLUMN).
 */
import type { ColumnType } from '../../../../../shared/tables';
import { columnTypeOfFormat, formatText, type StorageFormat } from '../formats';
import { isRecord } from '../rest-api/config-values';
import type { DiscoveredDataset, DiscoveredProperty, IngestionType, SyncType } from '../types';

export type AirbyteStream = Record<string, unknown> & { name: string };

export function streamsOf(catalog: unknown): AirbyteStream[] {
  if (!isRecord(catalog) || !Array.isArray(catalog.streams)) return [];
  return catalog.streams.filter((s): s is AirbyteStream => isRecord(s) && typeof s.name === 'string');
}

const TEXT: StorageFormat = { kind: 'text' };
const JSON_FORMAT: StorageFormat = { kind: 'json' };

/**
 * The storage of a JSON schema (Airbyte's data types): integer as int64 (a larger value widens the
 * column to an exact decimal), number as an exact decimal (Airbyte's numbers have any precision),
 * string formats date, date-time (with or without a time zone per airbyte_type) and time, arrays
 * with typed items as lists, objects and other arrays as JSON; unions of several types as text.
 */
export function formatOfSchema(schema: unknown): StorageFormat {
  if (!isRecord(schema)) return TEXT;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null');
  const type = types.length === 1 ? types[0] : undefined;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const airbyteType = typeof schema.airbyte_type === 'string' ? schema.airbyte_type : undefined;
  switch (type) {
    case 'integer':
      return { kind: 'int', bits: 64, unsigned: false };
    case 'number':
      return airbyteType === 'integer' ? { kind: 'int', bits: 64, unsigned: false } : { kind: 'exact-decimal' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'object':
      return JSON_FORMAT;
    case 'array': {
      const element = isRecord(schema.items) ? formatOfSchema(schema.items) : TEXT;
      if (element.kind === 'json' || element.kind === 'list') return JSON_FORMAT;
      // Numbers of any precision in a list: each kept as its exact text.
      return { kind: 'list', element: element.kind === 'exact-decimal' ? TEXT : element };
    }
    case 'string':
      if (format === 'date') return { kind: 'date' };
      if (format === 'date-time' || airbyteType?.startsWith('timestamp')) {
        return airbyteType === 'timestamp_without_timezone'
          ? { kind: 'timestamp', unit: 'us' }
          : { kind: 'timestamptz' };
      }
      if (format === 'time' || airbyteType?.startsWith('time_')) {
        return { kind: 'time', zoned: airbyteType === 'time_with_timezone' };
      }
      return TEXT;
    default:
      return TEXT;
  }
}

export function columnTypeOfSchema(schema: unknown): { type: ColumnType; format: string } {
  const format = formatOfSchema(schema);
  return { type: columnTypeOfFormat(format), format: formatText(format) };
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

/**
 * The one column of a stream whose schema declares no properties (`{"type": "object"}`): each
 * record is stored whole as JSON, every number with its digits, under Airbyte's own name for a
 * raw record. Without it such a stream would have no column and its records would vanish.
 */
export const RAW_DATA_COLUMN = '_airbyte_data';

/** The properties a stream's schema declares (an empty object when it declares none). */
export function declaredProperties(stream: AirbyteStream): Record<string, unknown> {
  const schema = isRecord(stream.json_schema) ? stream.json_schema : {};
  return isRecord(schema.properties) ? schema.properties : {};
}

/** Whether the stream's records are stored whole in RAW_DATA_COLUMN. */
export const isSchemaless = (stream: AirbyteStream) => Object.keys(declaredProperties(stream)).length === 0;

export function toDataset(stream: AirbyteStream): DiscoveredDataset {
  const schemaless = isSchemaless(stream);
  const properties = schemaless ? { [RAW_DATA_COLUMN]: { type: 'object' } } : declaredProperties(stream);
  // Keys and cursors name fields inside the raw record: no column holds them to compare.
  const primaryKey = schemaless ? [] : primaryKeyOf(stream);
  const cursorField = schemaless ? null : cursorOf(stream);
  const discovered = Object.entries(properties).map(([name, propertySchema]): DiscoveredProperty => {
    const property: DiscoveredProperty = {
      name,
      ...columnTypeOfSchema(propertySchema),
      isPrimaryKey: primaryKey.includes(name),
      isCursor: name === cursorField,
      // Sources send what their schema says loosely: a value it cannot hold makes the column text.
      onMisfit: 'text',
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
