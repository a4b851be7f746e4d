/**
 * Attachments mailed to the listener, read back through the tables API and the CSV download and
 * compared with the values as written. XML: XML holds text only, so each value spelled as a plain
 * number is that number exactly (19- and 20-digit ids, decimals a double would round, a scale of
 * trailing zeros), and its column is a number column; other spellings ("007", "+1", "1e5") stay text.
 * Avro: a double's NaN and ±Infinity (which JSON has no number for) and dates BC or past 9999
 * keep their values (as exact text), never a null or a cut date.
 */
import net from 'node:net';
import avro from 'avsc';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { makeApp, signIn } from '../../helpers';
import { api, createIntegration, definitionNamed, ok, type Integration } from '../helpers';
import { apiRows, downloadRows, warehouseTypes, type Row } from './exports';
import { canonical, type Kind } from './renderings';
import { openTestDuckDb } from '../../../engine/duckdb';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Each column: the kind compared, the stored type, and its values in the order of `n`. */
const COLUMNS: Record<string, { kind: Kind; stored: string; values: string[] }> = {
  n: { kind: 'int', stored: 'BIGINT', values: ['1', '2', '3'] },
  id: { kind: 'decimal', stored: 'DECIMAL(38,0)', values: ['12345678901234567890', '2', '-9007199254740993'] },
  amount: { kind: 'decimal', stored: 'DECIMAL(18,6)', values: ['204142800000.079190', '1.5', '-0.000001'] },
  // Typed like JSON numbers: doubles that print back as written (0.10 is the double 0.1).
  price: { kind: 'decimal', stored: 'DOUBLE', values: ['0.10', '2.25', '3'] },
  big: { kind: 'int', stored: 'BIGINT', values: ['9007199254740993', '1', '-9223372036854775808'] },
  code: { kind: 'text', stored: 'VARCHAR', values: ['007', '+1', '1e5'] },
};

const xml = () => {
  const names = Object.keys(COLUMNS);
  const rows = [0, 1, 2].map((i) => {
    // The id as an attribute, the others as elements.
    const fields = names.filter((n) => n !== 'id').map((n) => `<${n}>${COLUMNS[n]!.values[i]}</${n}>`);
    return `<order id="${COLUMNS.id!.values[i]}">${fields.join('')}</order>`;
  });
  return `<?xml version="1.0"?><orders>${rows.join('')}</orders>`;
};

/** Keeps values as given; registering it makes the written schema keep its logicalType attributes. */
class AsIs extends avro.types.LogicalType {
  protected override _fromValue(value: unknown) {
    return value;
  }
  protected override _toValue(value: unknown) {
    return value;
  }
}

const DAYS = [-732_000, 3_000_000, 19_723, 0];
const DOUBLES = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5];

async function avroFile(): Promise<Buffer> {
  const type = avro.Type.forSchema(
    {
      type: 'record',
      name: 'reading',
      fields: [
        { name: 'n', type: 'int' },
        { name: 'value', type: 'double' },
        { name: 'day', type: { type: 'int', logicalType: 'date' } },
      ],
    },
    { logicalTypes: { date: AsIs } },
  );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const encoder = new avro.streams.BlockEncoder(type);
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('end', () => resolve(Buffer.concat(chunks)));
    encoder.on('error', reject);
    DAYS.forEach((day, i) => encoder.write({ n: i + 1, value: DOUBLES[i], day }));
    encoder.end();
  });
}

/** An app listening for mail, with an inbox integration, to which one mail with `attachment` was sent. */
async function mailed(
  subject: string,
  attachment: { filename: string; content: string | Buffer; contentType: string },
) {
  const port = await freePort();
  const t = await makeApp({
    SMTP_LISTEN_PORT: String(port),
    INCOMING_EMAIL_DOMAIN: 'in.example.com',
    HOST: '127.0.0.1',
  });
  const cookie = await signIn(t, 'owner@example.com');
  const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
  const inbox = ok(
    await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: 'in', schemaName: 'inbox' }),
    201,
  );
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  await transport.sendMail({
    from: 'reports@example.org',
    to: inbox.emailAddress!,
    subject,
    text: 'See attached.',
    attachments: [attachment],
  });
  transport.close();
  return { t, cookie, inbox };
}

describe('attachments keep their values exactly', () => {
  it('numbers of every size are number columns with every digit; other spellings stay text', async () => {
    const { t, cookie, inbox } = await mailed('Orders', {
      filename: 'orders.xml',
      content: xml(),
      contentType: 'application/xml',
    });

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    const { account_id: accountId } = await t.deps.db
      .selectFrom('integrations')
      .select('account_id')
      .where('id', '=', inbox.id)
      .executeTakeFirstOrThrow();
    const types = await warehouseTypes(t, String(accountId), 'inbox', 'orders');
    expect(types).toEqual(Object.fromEntries(Object.entries(COLUMNS).map(([name, c]) => [name, c.stored])));
    const expected = [0, 1, 2].map((i) =>
      Object.fromEntries(Object.entries(COLUMNS).map(([name, c]) => [name, canonical(c.kind, c.values[i], 'source')])),
    );
    const seen = (rows: Row[], printer: 'api' | 'duckdb') =>
      rows.map((r) =>
        Object.fromEntries(Object.entries(COLUMNS).map(([name, c]) => [name, canonical(c.kind, r[name], printer)])),
      );
    const datasetId = detail.datasets[0]!.id;
    expect(seen(await apiRows(t, cookie, datasetId, 'n'), 'api')).toEqual(expected);
    expect(seen(await downloadRows(t, cookie, datasetId, 'csv', 'n', types), 'duckdb')).toEqual(expected);
  });

  it('Avro: NaN and ±Infinity doubles and dates of any year keep their values', async () => {
    const { t, cookie, inbox } = await mailed('Readings', {
      filename: 'readings.avro',
      content: await avroFile(),
      contentType: 'application/avro',
    });
    // The dates as an independent engine counts them from 1970-01-01.
    const db = await openTestDuckDb();
    const days = await db.rows(
      `SELECT CAST(CAST(DATE '1970-01-01' + to_days(d) AS DATE) AS VARCHAR) AS day FROM unnest([${DAYS.join(', ')}]) t(d)`,
    );
    db.close();
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'n');
    expect(rows.map((r) => [r.n, r.value === null ? null : String(r.value), canonical('date', r.day, 'api')])).toEqual(
      DAYS.map((_, i) => [i + 1, String(DOUBLES[i]), canonical('date', days[i]?.day, 'duckdb')]),
    );
  });
});
