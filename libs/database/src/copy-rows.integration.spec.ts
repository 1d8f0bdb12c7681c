import fc from 'fast-check';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import type { CopyValue } from './copy-text';
import { createPgliteClient } from './pglite-client';
import type { SqlClient } from './sql-client';

const TABLE = `CREATE TABLE copied (id int PRIMARY KEY, label text, amount bigint, position numeric(20), at timestamptz, document jsonb)`;
const COLUMNS = ['id', 'label', 'amount', 'position', 'at', 'document'];

/** Any text PostgreSQL stores (no NUL), tabs, newlines and backslashes above all, which COPY's text format escapes. */
const text = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\n', '\r', '\\', 'N', '.', '"', 'é', '😀') });
const row = fc.record({
  label: fc.option(text, { nil: null }),
  amount: fc.option(fc.maxSafeInteger(), { nil: null }),
  position: fc.bigInt({ min: 0n, max: 10n ** 19n }).map(String),
  at: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
  document: fc.option(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null))), { nil: null }),
});

/**
 * The rebuild copies rows the live projector sends as JSON (read by the table's row type): a row copied
 * must read back exactly as the same row sent that way does, on either adapter.
 */
describe.each([
  ['PostgreSQL', async () => createTestSchema('copy')],
  [
    'PGlite',
    async () => {
      const client = await createPgliteClient(undefined);
      return { client, drop: () => client.close() };
    },
  ],
])('copyRows on %s', (_name, open: () => Promise<Pick<TestSchema, 'client' | 'drop'>>) => {
  let db: Pick<TestSchema, 'client' | 'drop'>;
  let client: SqlClient;

  beforeAll(async () => {
    db = await open();
    client = db.client;
    await client.exec(`${TABLE}; ${TABLE.replace('copied', 'sent')}`);
  });

  afterAll(async () => {
    await db?.drop();
  });

  const read = (table: string) => client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY id`);

  it('reads back as the same rows sent as JSON, whatever the text holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 20 }), async (generated) => {
        const rows = generated.map((r, id) => ({ id, ...r }));
        await client.transaction(async (tx) => {
          await tx.query(`TRUNCATE copied, sent`);
          await tx.copyRows('copied', COLUMNS, rows.map((r) => COLUMNS.map((c) => r[c as keyof typeof r] as CopyValue)));
          await tx.query(`INSERT INTO sent SELECT * FROM jsonb_populate_recordset(NULL::sent, $1::jsonb)`, [JSON.stringify(rows)]);
        });
        expect(await read('copied')).toEqual(await read('sent'));
      }),
      { numRuns: 40 },
    );
  });

  it('copies outside a transaction too, and fails as a whole on a broken constraint', async () => {
    await client.query(`TRUNCATE copied`);
    await client.copyRows('copied', ['id', 'position', 'at'], [[1, '1', new Date(0)]]);
    await expect(client.copyRows('copied', ['id', 'position', 'at'], [[2, '2', new Date(0)], [1, '1', new Date(0)]])).rejects.toThrow(/duplicate key/);
    expect((await read('copied')).map((r) => JSON.parse(r.row).id)).toEqual([1]);
  });
});
