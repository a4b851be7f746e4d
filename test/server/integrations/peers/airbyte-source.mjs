#!/usr/bin/env node
// A small source speaking the Airbyte protocol, for the Airbyte connector's tests.
// Streams: customers (primary key id, incremental on updated_at) and invoices (full refresh only).
// Config: { api_key: 'good', extra_customers: n, mode: 'ok' | 'fail_mid_read' | 'crash' }.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const [command, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? JSON.parse(readFileSync(rest[i + 1], 'utf8')) : null;
};
const emit = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const log = (level, message) => emit({ type: 'LOG', log: { level, message } });
const config = option('--config') ?? {};

const customers = Array.from({ length: 5 + (config.extra_customers ?? 0) }, (_, i) => ({
  id: i + 1,
  name: `Customer ${i + 1}`,
  vip: i % 2 === 0,
  updated_at: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
  address: { city: 'Oslo' },
}));
const invoices = [
  { number: 'A-1', total: 10.5, issued: '2024-02-01' },
  { number: 'A-2', total: 99, issued: '2024-02-02' },
];

const catalog = {
  streams: [
    {
      name: 'customers',
      json_schema: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: ['null', 'string'], description: 'Display name' },
          vip: { type: 'boolean' },
          updated_at: { type: 'string', format: 'date-time' },
          address: { type: 'object' },
        },
      },
      supported_sync_modes: ['full_refresh', 'incremental'],
      source_defined_cursor: true,
      default_cursor_field: ['updated_at'],
      source_defined_primary_key: [['id']],
    },
    {
      name: 'invoices',
      json_schema: {
        type: 'object',
        properties: {
          number: { type: 'string' },
          total: { type: 'number' },
          issued: { type: 'string', format: 'date' },
        },
      },
      supported_sync_modes: ['full_refresh'],
    },
  ],
};

const record = (stream, data) => emit({ type: 'RECORD', record: { stream, data, emitted_at: Date.now() } });

switch (command) {
  case 'spec':
    emit({ type: 'SPEC', spec: { connectionSpecification: { type: 'object', required: ['api_key'] } } });
    break;
  case 'check':
    emit({
      type: 'CONNECTION_STATUS',
      connectionStatus:
        config.api_key === 'good' ? { status: 'SUCCEEDED' } : { status: 'FAILED', message: 'Invalid API key' },
    });
    break;
  case 'discover':
    emit({ type: 'CATALOG', catalog });
    break;
  case 'read': {
    process.stdout.write('plain text output the connector should log, not parse\n');
    log('INFO', 'Starting read');
    log('DEBUG', 'noise that stays out of the log');
    const configured = option('--catalog');
    const states = option('--state') ?? [];
    for (const { stream, sync_mode: mode } of configured.streams) {
      if (stream.name === 'invoices') for (const inv of invoices) record('invoices', inv);
      if (stream.name !== 'customers') continue;
      const saved = states.find((s) => s.stream?.stream_descriptor?.name === 'customers')?.stream?.stream_state;
      const since = mode === 'incremental' ? (saved?.updated_at ?? '') : '';
      let max = since;
      let sent = 0;
      for (const c of customers.filter((x) => x.updated_at > since)) {
        if (config.mode === 'fail_mid_read' && sent === 3) {
          emit({
            type: 'TRACE',
            trace: {
              type: 'ERROR',
              emitted_at: Date.now(),
              error: { message: 'Upstream API broke mid-read', failure_type: 'system_error' },
            },
          });
          process.exit(1);
        }
        if (config.mode === 'crash' && sent === 2) {
          process.stderr.write('Segmentation fault (pretend)\n');
          process.exit(3);
        }
        record('customers', c);
        sent++;
        max = c.updated_at;
        if (mode === 'incremental' && sent % 2 === 0) {
          emit({
            type: 'STATE',
            state: {
              type: 'STREAM',
              stream: { stream_descriptor: { name: 'customers' }, stream_state: { updated_at: max } },
            },
          });
        }
      }
      if (mode === 'incremental') {
        emit({
          type: 'STATE',
          state: {
            type: 'STREAM',
            stream: { stream_descriptor: { name: 'customers' }, stream_state: { updated_at: max } },
          },
        });
      }
    }
    break;
  }
  default:
    process.stderr.write(`unknown command ${command}\n`);
    process.exit(2);
}
