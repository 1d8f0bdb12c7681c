import fc from 'fast-check';
import { migrate, type SqlClient } from '@app/database';
import { accountPeriod } from './account-period.reader';
import { settleRunningBalances } from './ledger-running-balances';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

const BASE = Date.parse('2030-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);
const ACCOUNTS = ['merchant:m-1:payable', 'merchant:m-2:payable'];

/** A posting as the log delivers it: its place in the log is its index; its time is its own. */
interface Movement {
  minute: number;
  amount: number;
  account: number;
}

/**
 * Writes the movements as the ledger projection does, a batch at a time in log order: entries and
 * postings, then the running balances settled. Times need not follow the log (a transaction that
 * started first may commit last, an import carries old times).
 */
async function post(db: SqlClient, movements: readonly Movement[], batchSize: number): Promise<void> {
  await db.query('DELETE FROM ledger_postings');
  await db.query('DELETE FROM ledger_entries');
  for (let start = 0; start < movements.length; start += batchSize) {
    const batch = movements.slice(start, start + batchSize).map((m, i) => ({ ...m, position: start + i + 1 }));
    await db.transaction(async (tx) => {
      await tx.copyRows(
        'ledger_entries',
        ['entry_id', 'event_id', 'stream_id', 'event_type', 'commit_position', 'prepare_position', 'recorded_at', 'description'],
        batch.map((m) => [`e${m.position}`, `e${m.position}`, `order-ord_${m.position}`, 'OrderPaid', m.position, m.position, at(m.minute), 'Order paid']),
      );
      const postings = batch.map((m) => ({ entry: `e${m.position}`, position: m.position, account: ACCOUNTS[m.account], recorded_at: at(m.minute), amount: m.amount }));
      await tx.copyRows(
        'ledger_postings',
        ['entry_id', 'line', 'account', 'debit', 'credit', 'commit_position', 'prepare_position', 'recorded_at'],
        postings.map((p) => [p.entry, 1, p.account, Math.max(0, -p.amount), Math.max(0, p.amount), p.position, p.position, p.recorded_at]),
      );
      await settleRunningBalances(tx, postings);
    });
  }
}

const sum = (movements: readonly Movement[]) => movements.reduce((total, m) => total + m.amount, 0);

describe.each(READ_MODEL_DATABASES)('an account over a period on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open('period');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('opens with what came before, lists the period in log order, and closes with the two added', async () => {
    await post(
      db,
      [
        { minute: 0, amount: 10_000, account: 0 },
        { minute: 60, amount: 5_000, account: 0 },
        { minute: 90, amount: -15_000, account: 0 },
        { minute: 45, amount: 3_000, account: 1 },
        { minute: 120, amount: 700, account: 0 },
      ],
      2,
    );
    const period = await accountPeriod(db, [ACCOUNTS[0]], at(30), at(120));
    expect(period.opening).toBe(10_000);
    expect(period.postings.map((p) => [p.eventId, p.amount])).toEqual([
      ['e2', 5_000],
      ['e3', -15_000],
    ]);
    expect(await accountPeriod(db, [ACCOUNTS[0]], at(120), at(180))).toMatchObject({ opening: 0, postings: [{ eventId: 'e5', amount: 700 }] });
    expect(await accountPeriod(db, ['merchant:none:payable'], at(0), at(180))).toEqual({ opening: 0, postings: [] });
  });

  it('opens with the sum of every movement recorded before the period, whatever the order the log brought them in', async () => {
    const aMovement = fc.record({ minute: fc.integer({ min: 0, max: 600 }), amount: fc.integer({ min: -5_000_000, max: 5_000_000 }), account: fc.integer({ min: 0, max: 1 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(aMovement, { maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: -10, max: 610 }),
        fc.integer({ min: 1, max: 300 }),
        async (movements, batchSize, fromMinute, length) => {
          await post(db, movements, batchSize);
          const mine = movements.map((m, i) => ({ ...m, eventId: `e${i + 1}` })).filter((m) => m.account === 0);
          const period = await accountPeriod(db, [ACCOUNTS[0]], at(fromMinute), at(fromMinute + length));
          expect(period.opening).toBe(sum(mine.filter((m) => m.minute < fromMinute)));
          const inPeriod = mine.filter((m) => m.minute >= fromMinute && m.minute < fromMinute + length);
          expect(period.postings.map((p) => [p.eventId, p.amount])).toEqual(inPeriod.map((m) => [m.eventId, m.amount]));
          // A period and the next one meet: this closing is that opening.
          const next = await accountPeriod(db, [ACCOUNTS[0]], at(fromMinute + length), at(fromMinute + 2 * length));
          expect(next.opening).toBe(period.opening + sum(inPeriod));
        },
      ),
      { numRuns: 40 },
    );
  });
});
