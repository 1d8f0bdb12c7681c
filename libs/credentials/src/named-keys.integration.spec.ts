import { createPgliteClient, migrate, type SqlClient } from '@app/database';
import { createTestSchema } from '../../../test/support/postgres';
import { CREDENTIAL_MIGRATIONS } from './credentials.migrations';
import { AuditorStore, type NamedKeys, StaffKeys } from './named-keys';
import { hashApiSecret } from './secrets';

interface Database {
  client: SqlClient;
  schema: string;
  drop(): Promise<void>;
}

/** The two engines the credentials live on: a fresh schema of the shared PostgreSQL, and PGlite in memory (the embedded mode). */
const DATABASES: [string, () => Promise<Database>][] = [
  ['PostgreSQL', () => createTestSchema('named_keys')],
  [
    'PGlite',
    async () => {
      const client = await createPgliteClient(undefined);
      return { client, schema: 'public', drop: () => client.close() };
    },
  ],
];

/** Each kind of named key: its store, its table and id column, and the prefix its keys show. */
const KINDS = [
  { kind: 'staff', store: (db: SqlClient): NamedKeys => new StaffKeys(db), table: 'staff_credentials', idColumn: 'staff_id', prefix: 'sfk_' },
  { kind: 'auditor', store: (db: SqlClient): NamedKeys => new AuditorStore(db), table: 'auditor_credentials', idColumn: 'auditor_id', prefix: 'ak_' },
] as const;

describe.each(DATABASES)('named keys on %s', (_engine, open) => {
  let database: Database;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open();
    db = database.client;
    await migrate(db, database.schema, 'merchants', CREDENTIAL_MIGRATIONS);
  });

  afterAll(async () => {
    await database?.drop();
  });

  describe.each(KINDS)('$kind keys', ({ kind, store, table, idColumn, prefix }) => {
    it('keeps only the hash of a key, and finds its holder by the key', async () => {
      const keys = store(db);
      const key = await keys.issue(`${kind}-1`, 'Hanna Tesfaye');
      expect(key).toMatch(new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`));
      const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${table} t WHERE ${idColumn} = $1`, [`${kind}-1`]);
      expect(rows).toHaveLength(1);
      expect(rows[0].row).toContain(hashApiSecret(key));
      expect(rows[0].row).not.toContain(key);
      expect(await keys.findByKey(key)).toEqual({ id: `${kind}-1`, name: 'Hanna Tesfaye' });
      expect(await keys.findByKey(`${prefix}not-a-key-we-issued`)).toBeUndefined();
    });

    it('opens nothing once revoked, and still names whoever held it; other holders keep theirs', async () => {
      const keys = store(db);
      const revoked = await keys.issue(`${kind}-2`, 'Dawit Alemu');
      const kept = await keys.issue(`${kind}-3`, 'Meron Bekele');
      await keys.revoke(`${kind}-2`);
      // Revoking again changes nothing.
      await keys.revoke(`${kind}-2`);
      expect(await keys.findByKey(revoked)).toBeUndefined();
      expect(await keys.findByKey(kept)).toEqual({ id: `${kind}-3`, name: 'Meron Bekele' });
      expect(await keys.names([`${kind}-2`, `${kind}-3`, `${kind}-unknown`])).toEqual(
        new Map([
          [`${kind}-2`, 'Dawit Alemu'],
          [`${kind}-3`, 'Meron Bekele'],
        ]),
      );
      expect(await keys.names([])).toEqual(new Map());
    });
  });

  it("keeps the kinds apart: a staff member's key is no auditor's, and revoking one kind's id leaves the other's", async () => {
    const staff = new StaffKeys(db);
    const auditors = new AuditorStore(db);
    const staffKey = await staff.issue('same-id', 'Staff member');
    const auditorKey = await auditors.issue('same-id', 'Auditor');
    expect(await auditors.findByKey(staffKey)).toBeUndefined();
    expect(await staff.findByKey(auditorKey)).toBeUndefined();
    await staff.revoke('same-id');
    expect(await staff.findByKey(staffKey)).toBeUndefined();
    expect(await auditors.findByKey(auditorKey)).toEqual({ id: 'same-id', name: 'Auditor' });
  });
});

describe('auditor keys issued before auditor keys could be revoked', () => {
  let database: Database;

  afterAll(async () => {
    await database?.drop();
  });

  it('still open the audit after the migration that adds revocation', async () => {
    database = await createTestSchema('named_keys_upgrade');
    await migrate(database.client, database.schema, 'merchants', CREDENTIAL_MIGRATIONS.filter((migration) => migration.id !== '012-auditor-key-revocation'));
    // As the previous release stored an auditor's key: no revoked_at column yet.
    const key = 'ak_issued-by-the-previous-release';
    await database.client.query(`INSERT INTO auditor_credentials (auditor_id, name, key_hash) VALUES ($1, $2, $3)`, ['aud-old', 'Earlier auditor', hashApiSecret(key)]);
    await migrate(database.client, database.schema, 'merchants', CREDENTIAL_MIGRATIONS);
    expect(await new AuditorStore(database.client).findByKey(key)).toEqual({ id: 'aud-old', name: 'Earlier auditor' });
  });
});
