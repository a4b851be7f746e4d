#!/usr/bin/env node
// A small source speaking the Airbyte protocol, for the Airbyte connector's tests.
// Streams: customers (primary key id, incremental on updated_at), invoices (full refresh only),
// typed (every Airbyte data type, numbers a double would change, a 19-digit cursor) and
// environment (one record saying how the source was run: user, folder, environment variables).
// Config: { api_key: 'good', extra_customers: n, mode, region }; mode 'ok' | 'fail_mid_read' | 'crash'
// (stderr and exit 3 mid-read) | 'stderr_crash' (stderr and exit 3 at once) | 'hang' | 'long_line' |
// 'stderr_flood' | 'hang_read' (only the read hangs) | 'trace' (a TRACE error) | 'grandchild' (starts a sleeping child, writes its pid
// to the file PEER_PIDS names, then hangs) | 'escape' (a child in a session of its own keeps stdout
// open after the source exits).
// When the variable PEER_CALLS names a file, each run appends its command there.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';

const [command, ...rest] = process.argv.slice(2);
const option = (name) => {
  const i = rest.indexOf(name);
  return i >= 0 ? JSON.parse(readFileSync(rest[i + 1], 'utf8')) : null;
};
const emit = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const log = (level, message) => emit({ type: 'LOG', log: { level, message } });
const config = option('--config') ?? {};
if (process.env.PEER_CALLS) appendFileSync(process.env.PEER_CALLS, `${command}\n`);

const hang = () => setInterval(() => undefined, 1000);
/** The misbehaviours a test asks for (any command but spec). */
function misbehave() {
  switch (config.mode) {
    case 'stderr_crash':
      process.stderr.write(`SECRET-STDERR uid=${process.getuid?.()} ${process.cwd()}\n`);
      process.exit(3);
      break;
    case 'hang':
      hang();
      return true;
    case 'long_line':
      process.stdout.write(`{"type":"LOG","log":{"level":"INFO","message":"${'x'.repeat(2 * 1024 * 1024)}"}}\n`);
      hang();
      return true;
    case 'stderr_flood':
      for (let i = 0; i < 2000; i++) process.stderr.write(`${'noise '.repeat(200)}\n`);
      hang();
      return true;
    case 'trace':
      emit({
        type: 'TRACE',
        trace: {
          type: 'ERROR',
          emitted_at: Date.now(),
          error: { message: 'The API said no', internal_message: 'INTERNAL-DETAIL', failure_type: 'config_error' },
        },
      });
      process.exit(1);
      break;
    case 'escape': {
      // A child in a session of its own that keeps stdout and stderr open after this one exits.
      const child = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], {
        detached: true,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      appendFileSync(process.env.PEER_PIDS, `${child.pid}\n`);
      process.exit(0);
      break;
    }
    case 'grandchild': {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { stdio: 'ignore' });
      appendFileSync(process.env.PEER_PIDS, `${child.pid}\n`);
      hang();
      return true;
    }
  }
  return false;
}

const connectionSpecification = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Test source',
  type: 'object',
  required: ['api_key'],
  properties: {
    api_key: { type: 'string', title: 'API key', airbyte_secret: true, order: 0 },
    extra_customers: { type: 'integer', title: 'Extra customers', minimum: 0, order: 1 },
    typed_records: { type: 'integer', title: 'Extra typed records', minimum: 0 },
    mode: {
      type: 'string',
      title: 'Mode',
      enum: [
        'ok',
        'fail_mid_read',
        'crash',
        'stderr_crash',
        'hang',
        'hang_read',
        'long_line',
        'stderr_flood',
        'trace',
        'grandchild',
        'escape',
      ],
      default: 'ok',
      order: 2,
    },
    region: {
      type: 'object',
      title: 'Region',
      order: 3,
      oneOf: [
        { title: 'EU', required: ['kind'], properties: { kind: { type: 'string', const: 'eu' } } },
        {
          title: 'Custom',
          required: ['kind', 'url'],
          properties: {
            kind: { type: 'string', const: 'custom' },
            url: { type: 'string', title: 'Region URL', pattern: '^https://' },
          },
        },
      ],
    },
  },
};

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
    {
      // Every Airbyte data type, with values a double would change (written as raw JSON lines).
      name: 'typed',
      json_schema: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          big: { type: 'integer' },
          amount: { type: 'number' },
          ratio: { type: ['null', 'number'] },
          flag: { type: 'boolean' },
          day: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time', airbyte_type: 'timestamp_with_timezone' },
          local: { type: 'string', format: 'date-time', airbyte_type: 'timestamp_without_timezone' },
          clock: { type: 'string', format: 'time', airbyte_type: 'time_without_timezone' },
          name: { type: ['null', 'string'] },
          tags: { type: 'array', items: { type: 'string' } },
          nums: { type: 'array', items: { type: 'integer' } },
          meta: { type: 'object' },
        },
      },
      supported_sync_modes: ['full_refresh', 'incremental'],
      source_defined_cursor: true,
      default_cursor_field: ['id'],
      source_defined_primary_key: [['id']],
    },
    {
      name: 'environment',
      json_schema: {
        type: 'object',
        properties: {
          uid: { type: 'integer' },
          gid: { type: 'integer' },
          groups: { type: 'string' },
          cwd: { type: 'string' },
          argv: { type: 'string' },
          env: { type: 'string' },
        },
      },
      supported_sync_modes: ['full_refresh'],
    },
  ],
};

/** Records of the stream 'typed' (config.typed_records adds more, for incremental reads). */
const TYPED_RECORDS = 5 + (config.typed_records ?? 0);

const record = (stream, data) => emit({ type: 'RECORD', record: { stream, data, emitted_at: Date.now() } });

switch (command) {
  case 'spec':
    emit({ type: 'SPEC', spec: { documentationUrl: 'https://example.com/test-source', connectionSpecification } });
    break;
  case 'check':
    if (misbehave()) break;
    emit({
      type: 'CONNECTION_STATUS',
      connectionStatus:
        config.api_key === 'good' ? { status: 'SUCCEEDED' } : { status: 'FAILED', message: 'Invalid API key' },
    });
    break;
  case 'discover':
    if (misbehave()) break;
    emit({ type: 'CATALOG', catalog });
    break;
  case 'read': {
    if (misbehave()) break;
    if (config.mode === 'hang_read') {
      hang();
      break;
    }
    process.stdout.write('plain text output the connector should log, not parse\n');
    log('INFO', 'Starting read');
    log('DEBUG', 'noise that stays out of the log');
    const configured = option('--catalog');
    const states = option('--state') ?? [];
    for (const { stream, sync_mode: mode } of configured.streams) {
      if (stream.name === 'invoices') for (const inv of invoices) record('invoices', inv);
      if (stream.name === 'environment') {
        record('environment', {
          uid: process.getuid?.(),
          gid: process.getgid?.(),
          groups: JSON.stringify(process.getgroups?.() ?? []),
          cwd: process.cwd(),
          argv: JSON.stringify(process.argv.slice(2)),
          env: JSON.stringify(process.env),
        });
      }
      if (stream.name === 'typed') {
        // The saved cursor is read from the state file's text: JSON.parse would round it.
        const stateFile = rest.indexOf('--state') >= 0 ? rest[rest.indexOf('--state') + 1] : null;
        const cursor = stateFile ? /"cursor":\s*(-?\d+)/.exec(readFileSync(stateFile, 'utf8'))?.[1] : undefined;
        const since = mode === 'incremental' && cursor !== undefined ? BigInt(cursor) : null;
        const first = 1234567890123456789n;
        let max = null;
        for (let i = 0; i < TYPED_RECORDS; i++) {
          const id = first + BigInt(i);
          if (since !== null && id < since) continue;
          max = id;
          process.stdout.write(
            `{"type":"RECORD","record":{"stream":"typed","emitted_at":1,"data":{"id":${id},` +
              `"big":${i === 3 ? '123456789012345678901234567890' : `900719925474099${i}`},` +
              `"amount":${i % 2 ? '99999999999999.999999' : `204142800000.07919${i}`},` +
              `"ratio":${i === 1 ? 'null' : '0.30000000000000000001'},"flag":${i % 2 === 0},` +
              `"day":"2024-02-2${i}","at":"2024-01-01T10:00:0${i}.123456+02:00","local":"2024-01-01T10:00:00.5",` +
              `"clock":"10:00:0${i}.123456","name":${i === 2 ? '""' : i === 4 ? 'null' : `"n${i}"`},` +
              `"tags":["a","",null],"nums":[1,9223372036854775807],` +
              `"meta":{"big":12345678901234567890123,"x":[1.50],"s":"t\\"q"}}}}\n`,
          );
        }
        if (mode === 'incremental' && max !== null) {
          process.stdout.write(
            `{"type":"STATE","state":{"type":"STREAM","stream":{"stream_descriptor":{"name":"typed"},"stream_state":{"cursor":${max}}}}}\n`,
          );
        }
        continue;
      }
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
