import { createPgliteClient, type SqlClient } from '@app/database';
import { BatchWrites } from './batch-writes';

/** A batch's final statement: its gathered writes, the reads sent with them, and the statement it rides with. */
describe('a batch final writes and reads', () => {
  let db: SqlClient;

  beforeAll(async () => {
    db = await createPgliteClient(undefined);
    await db.exec(`CREATE TABLE balances (account text PRIMARY KEY, balance bigint NOT NULL); CREATE TABLE moves (account text, amount bigint)`);
  });

  afterAll(async () => {
    await db?.close();
  });

  it("answers the final statement's rows and each read, the read seeing the batch's earlier statements but not the final writes", async () => {
    const answered = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO balances (account, balance) VALUES ($1, $2)`, ['escrow-1', 500]);
      const last = new BatchWrites();
      last.add(`INSERT INTO moves (account, amount) VALUES ($1, $2)`, ['escrow-1', 200]);
      last.add(`UPDATE balances SET balance = balance + $2 WHERE account = $1`, ['escrow-1', 200]);
      const read = last.addRead(`SELECT account, balance::text AS balance FROM balances WHERE account = $1`, ['escrow-1']);
      const final = await last.flush<{ name: string }>(tx, { sql: `SELECT $1::text AS name`, params: ['checkpoint'] });
      return { final, read: last.readRows(read) };
    });
    expect(answered).toEqual({ final: [{ name: 'checkpoint' }], read: [{ account: 'escrow-1', balance: '500' }] });
    expect(await db.query(`SELECT account, balance::text AS balance FROM balances`)).toEqual([{ account: 'escrow-1', balance: '700' }]);
    expect(await db.query(`SELECT account, amount::text AS amount FROM moves`)).toEqual([{ account: 'escrow-1', amount: '200' }]);
  });

  it("writes a write's followers over the rows it wrote, in the same statement", async () => {
    await db.exec(`CREATE TABLE accounts (account text PRIMARY KEY, revision int NOT NULL); CREATE TABLE account_log (account text, revision int)`);
    await db.query(`INSERT INTO accounts VALUES ('a', 2)`);
    const last = new BatchWrites();
    // Only 'b' is newer than what is there: 'a' is not written, so its follower writes nothing for it.
    last.add(
      `INSERT INTO accounts SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(account text, revision int)
       ON CONFLICT (account) DO UPDATE SET revision = EXCLUDED.revision WHERE accounts.revision < EXCLUDED.revision RETURNING accounts.*`,
      [JSON.stringify([{ account: 'a', revision: 2 }, { account: 'b', revision: 1 }])],
      (written) => [`INSERT INTO account_log SELECT account, revision FROM ${written}`],
    );
    await db.transaction((tx) => last.flush(tx, { sql: `SELECT 1`, params: [] }));
    expect(await db.query(`SELECT * FROM account_log`)).toEqual([{ account: 'b', revision: 1 }]);
  });

  it('sends reads alone when the batch has neither writes nor a final statement', async () => {
    const last = new BatchWrites();
    const read = last.addRead(`SELECT count(*)::int AS n FROM balances WHERE balance > $1`, [0]);
    expect(await last.flush(db)).toEqual([]);
    expect(last.readRows(read)).toEqual([{ n: 1 }]);
  });
});
