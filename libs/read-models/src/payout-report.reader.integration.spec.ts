import { migrate, type SqlClient } from '@app/database';
import { payoutCarried, payoutRangeCursor, payoutRangeLines } from './payout-range.reader';
import { payoutLedgerLines } from './payout-report.reader';
import type { PayoutView } from './payouts.projection';
import { READ_MODEL_MIGRATIONS } from './read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from './testing/read-model-databases';

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);

interface Posting {
  account: string;
  amount: number;
}

/** An entry as the ledger projection writes it, its postings signed (credit positive). */
async function entry(db: SqlClient, position: number, type: string, streamId: string, postings: Posting[]): Promise<void> {
  await db.query(
    `INSERT INTO ledger_entries (entry_id, event_id, stream_id, event_type, commit_position, prepare_position, recorded_at, description) VALUES ($1, $1, $2, $3, $4, $4, $5, $3)`,
    [`e${position}`, streamId, type, position, at(position)],
  );
  for (const [line, posting] of postings.entries()) {
    await db.query(
      `INSERT INTO ledger_postings (entry_id, line, account, debit, credit, commit_position, prepare_position, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
      [`e${position}`, line + 1, posting.account, Math.max(0, -posting.amount), Math.max(0, posting.amount), position, at(position)],
    );
  }
}

async function settles(db: SqlClient, payoutId: string, eventIds: string[]): Promise<void> {
  for (const [seq, eventId] of eventIds.entries()) {
    await db.query(`INSERT INTO payout_movements (payout_id, seq, event_id, amount) VALUES ($1, $2, $3, 0)`, [payoutId, seq, eventId]);
  }
}

describe.each(READ_MODEL_DATABASES)('the ledger lines of a payout on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open('payout_report');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
    // The marketplace mkt's escrow releases 1,000.00 to the seller s-1, 100.00 of it the marketplace's fee;
    // s-1's own order pays 500.00, 25.00 of it s-1's fee; the marketplace's own release pays it 300.00.
    await entry(db, 1, 'AllocationReleased', 'escrow-esc_1', [
      { account: 'escrow:esc_1', amount: -100_000 },
      { account: 'merchant:s-1:payable', amount: 90_000 },
      { account: 'merchant:mkt:fees', amount: 10_000 },
    ]);
    await entry(db, 2, 'OrderPaid', 'order-ord_1', [
      { account: 'provider:clearing', amount: -50_000 },
      { account: 'merchant:s-1:payable', amount: 47_500 },
      { account: 'merchant:s-1:fees', amount: 2_500 },
    ]);
    await entry(db, 3, 'AllocationReleased', 'escrow-esc_1', [
      { account: 'escrow:esc_1', amount: -30_000 },
      { account: 'merchant:mkt:payable', amount: 30_000 },
    ]);
    await settles(db, 'po_s1', ['e1', 'e2']);
    await settles(db, 'po_mkt', ['e3']);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("gives each movement's net to the merchant's payable and the fee taken out of its gross, in the payout's order", async () => {
    const lines = await payoutLedgerLines(db, 'po_s1', 's-1', -1, 10);
    expect(lines).toEqual([
      { eventId: 'e1', eventType: 'AllocationReleased', streamId: 'escrow-esc_1', description: 'AllocationReleased', recordedAt: at(1), net: 90_000, fee: 10_000 },
      { eventId: 'e2', eventType: 'OrderPaid', streamId: 'order-ord_1', description: 'OrderPaid', recordedAt: at(2), net: 47_500, fee: 2_500 },
    ]);
    expect(await payoutLedgerLines(db, 'po_mkt', 'mkt', -1, 10)).toMatchObject([{ eventId: 'e3', net: 30_000, fee: 0 }]);
  });

  // A payout of its own stream takes the payable and the fees (payoutAccounts): its range is both accounts' postings, one line per entry.
  const rangePayout = (merchantId: string, amount: number) => ({ payoutId: `po_range_${merchantId}`, merchantId, amount, after: null, through: '3-3' }) as unknown as PayoutView;

  it("reads a range payout's lines from the payable and the fees: a platform's fee is a line of its own, a merchant's own fee part of its line", async () => {
    const mkt = rangePayout('mkt', 40_000);
    expect((await payoutRangeLines(db, mkt, undefined, 10)).map(({ eventId, net, fee }) => ({ eventId, net, fee }))).toEqual([
      { eventId: 'e1', net: 10_000, fee: 0 },
      { eventId: 'e3', net: 30_000, fee: 0 },
    ]);
    expect(await payoutCarried(db, mkt)).toBe(0);
    const s1 = rangePayout('s-1', 140_000);
    expect((await payoutRangeLines(db, s1, undefined, 10)).map(({ eventId, net, fee }) => ({ eventId, net, fee }))).toEqual([
      { eventId: 'e1', net: 90_000, fee: 10_000 },
      { eventId: 'e2', net: 50_000, fee: 0 },
    ]);
    expect(await payoutCarried(db, s1)).toBe(0);
  });

  it("pages a range payout's lines across both accounts in log order", async () => {
    const mkt = rangePayout('mkt', 40_000);
    const [first] = await payoutRangeLines(db, mkt, undefined, 1);
    expect(first.eventId).toBe('e1');
    const from = await payoutRangeCursor(db, mkt, 'e1');
    expect(from).toEqual(first.position);
    expect((await payoutRangeLines(db, mkt, from, 1)).map((line) => line.eventId)).toEqual(['e3']);
    expect(await payoutRangeCursor(db, mkt, 'e2')).toBeUndefined();
  });

  it('reads a page of movements after the one it is given', async () => {
    expect((await payoutLedgerLines(db, 'po_s1', 's-1', -1, 1)).map((line) => line.eventId)).toEqual(['e1']);
    expect((await payoutLedgerLines(db, 'po_s1', 's-1', 0, 1)).map((line) => line.eventId)).toEqual(['e2']);
    expect(await payoutLedgerLines(db, 'po_s1', 's-1', 1, 1)).toEqual([]);
  });
});
