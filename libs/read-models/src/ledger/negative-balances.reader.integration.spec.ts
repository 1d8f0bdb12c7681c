import fc from 'fast-check';
import { migrate, type SqlClient } from '@app/database';
import { settleRunningBalances } from './ledger-running-balances';
import { negativeBalancesOf, negativeBalancesOverdue } from './negative-balances.reader';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

const BASE = Date.parse('2030-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);
const OWNERS = ['m-1', 'm-2'];

interface Movement {
  minute: number;
  amount: number;
  owner: number;
  /** Into (or out of) the owner's fees account rather than its payable. */
  fees?: boolean;
}

/** Writes the movements as the ledger projection does, in log order: postings, running balances and each account's totals. */
async function post(db: SqlClient, movements: readonly Movement[]): Promise<void> {
  await db.query('DELETE FROM ledger_postings');
  await db.query('DELETE FROM ledger_balances');
  const postings = movements.map((m, i) => ({ entry: `e${i + 1}`, position: i + 1, account: `merchant:${OWNERS[m.owner]}:${m.fees ? 'fees' : 'payable'}`, recorded_at: at(m.minute), amount: m.amount }));
  await db.transaction(async (tx) => {
    if (postings.length === 0) return;
    await tx.copyRows(
      'ledger_postings',
      ['entry_id', 'line', 'account', 'debit', 'credit', 'commit_position', 'prepare_position', 'recorded_at'],
      postings.map((p) => [p.entry, 1, p.account, Math.max(0, -p.amount), Math.max(0, p.amount), p.position, p.position, p.recorded_at]),
    );
    await settleRunningBalances(tx, postings);
    // Both owners are live tenants: their accounts are the live books'.
    await tx.query(`INSERT INTO ledger_balances (account, debit, credit, mode) SELECT account, sum(debit), sum(credit), 'live' FROM ledger_postings GROUP BY account`);
  });
}

/**
 * What the reader must find, from the movements alone: the owner's balance (its payable and fees
 * together), and the first movement of either (in statement order) after which it stayed below zero.
 */
function expected(movements: readonly Movement[], owner: number): { balance: number; since: Date } | undefined {
  const mine = movements.map((m, position) => ({ ...m, position })).filter((m) => m.owner === owner);
  mine.sort((a, b) => a.minute - b.minute || a.position - b.position);
  let balance = 0;
  let since: number | undefined;
  for (const m of mine) {
    const before = balance;
    balance += m.amount;
    if (balance >= 0) since = undefined;
    else if (before >= 0 || since === undefined) since = m.minute;
  }
  return balance < 0 ? { balance, since: at(since!) } : undefined;
}

describe.each(READ_MODEL_DATABASES)('negative balances on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open('negative');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lists a payable below zero since it last went below zero, and no longer once it is covered', async () => {
    await post(db, [
      { minute: 0, amount: 1_000, owner: 0 },
      { minute: 10, amount: -3_000, owner: 0 },
      { minute: 20, amount: 2_500, owner: 0 },
      { minute: 30, amount: -1_000, owner: 0 },
      { minute: 40, amount: -200, owner: 0 },
      { minute: 5, amount: 700, owner: 1 },
    ]);
    const owed = await negativeBalancesOf(db, OWNERS);
    expect([...owed.values()]).toEqual([{ ownerId: 'm-1', platformId: null, name: null, balance: -700, negativeSince: at(30) }]);
    expect((await negativeBalancesOverdue(db, 'live', { now: at(30), days: 0 }, 10)).map((b) => b.ownerId)).toEqual(['m-1']);
    // The test books hold none of it.
    expect(await negativeBalancesOverdue(db, 'test', { now: at(30), days: 0 }, 10)).toEqual([]);
    expect(await negativeBalancesOverdue(db, 'live', { now: at(29), days: 0 }, 10)).toEqual([]);
  });

  it("counts a platform's fees with its payable: a payable below zero that its fees cover is owed by no one", async () => {
    await post(db, [
      { minute: 0, amount: 5_000, owner: 0 },
      { minute: 1, amount: 2_000, owner: 0, fees: true },
      // A transfer to a seller spends the fees while it debits the payable.
      { minute: 10, amount: -6_500, owner: 0 },
      { minute: 2, amount: 2_000, owner: 1, fees: true },
      { minute: 20, amount: -2_000, owner: 1 },
    ]);
    expect(await negativeBalancesOf(db, OWNERS)).toEqual(new Map());
    expect(await negativeBalancesOverdue(db, 'live', { now: at(100), days: 0 }, 10)).toEqual([]);
  });

  it('a payable below zero by more than the fees cover is owed by the difference, since the posting that took the two below zero', async () => {
    await post(db, [
      { minute: 0, amount: 2_000, owner: 0, fees: true },
      // The payable alone goes below zero here; with the fees, not yet.
      { minute: 10, amount: -1_500, owner: 0 },
      { minute: 20, amount: -1_000, owner: 0 },
      { minute: 30, amount: 300, owner: 0, fees: true },
      { minute: 40, amount: -100, owner: 0, fees: true },
    ]);
    const owed = await negativeBalancesOf(db, OWNERS);
    expect([...owed.values()]).toEqual([{ ownerId: 'm-1', platformId: null, name: null, balance: -300, negativeSince: at(20) }]);
    expect((await negativeBalancesOverdue(db, 'live', { now: at(20), days: 0 }, 10)).map((b) => [b.ownerId, b.balance])).toEqual([['m-1', -300]]);
    expect(await negativeBalancesOverdue(db, 'live', { now: at(19), days: 0 }, 10)).toEqual([]);
  });

  it("counts an owner's days below zero to its test clock's time when it is attached to one, to the real time otherwise", async () => {
    await post(db, [
      { minute: 0, amount: -1_000, owner: 0 },
      { minute: 0, amount: -1_000, owner: 1 },
    ]);
    await db.query(`INSERT INTO test_clock_objects (object_id, test_clock_id, event_type) VALUES ('m-2', 'clock_1', 'AccountCreated')`);
    const clockStandsAt = (time: Date) =>
      db.query(
        `INSERT INTO test_clocks_view (test_clock_id, frozen_time, created_at, updated_at, revision) VALUES ('clock_1', $1, $1, $1, 0)
         ON CONFLICT (test_clock_id) DO UPDATE SET frozen_time = EXCLUDED.frozen_time`,
        [time],
      );
    const day = 24 * 60;
    const overdue = async (now: Date) => (await negativeBalancesOverdue(db, 'live', { now, days: 7 }, 10)).map((b) => [b.ownerId, b.testClock]);
    // Its clock not in the view yet: it is not judged on the real time.
    expect(await overdue(at(8 * day))).toEqual([['m-1', undefined]]);
    await clockStandsAt(at(6 * day));
    expect(await overdue(at(8 * day))).toEqual([['m-1', undefined]]);
    await clockStandsAt(at(7 * day));
    expect(await overdue(at(1))).toEqual([['m-2', { testClockId: 'clock_1', time: at(7 * day) }]]);
    await db.query('DELETE FROM test_clock_objects');
    await db.query('DELETE FROM test_clocks_view');
  });

  it('finds every owner whose payable and fees are below zero together, with their balance and since when, whatever the order and times the log brought its movements in', async () => {
    const aMovement = fc.record({
      minute: fc.integer({ min: 0, max: 100 }),
      amount: fc.integer({ min: -50_000, max: 50_000 }),
      owner: fc.integer({ min: 0, max: 1 }),
      fees: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(aMovement, { maxLength: 30 }), async (movements) => {
        await post(db, movements);
        const owed = await negativeBalancesOf(db, OWNERS);
        for (const [owner, id] of OWNERS.entries()) {
          const want = expected(movements, owner);
          const found = owed.get(id);
          expect(found && { balance: found.balance, since: found.negativeSince }).toEqual(want);
        }
      }),
      { numRuns: 40 },
    );
  });
});
