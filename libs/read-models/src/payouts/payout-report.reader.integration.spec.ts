import { migrate, type SqlClient } from '@app/database';
import { payableNotYetAvailable } from '../ledger/payable-availability.reader';
import { payoutCarried, payoutMovementsPage, rangeOutcome, releasedOutcome } from './payout-movements.reader';
import { payoutRangeCursor, payoutRangeLines } from './payout-range.reader';
import { payoutReleasedLines } from './payout-released.reader';
import { payoutLedgerLines } from './payout-report.reader';
import type { PayoutView } from './payouts.projection';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);

interface Posting {
  account: string;
  amount: number;
}

/** An entry as the ledger projection writes it, its postings signed (credit positive). */
async function entry(db: SqlClient, position: number, type: string, streamId: string, postings: Posting[], recordedAt = at(position)): Promise<void> {
  await db.query(
    `INSERT INTO ledger_entries (entry_id, event_id, stream_id, event_type, commit_position, prepare_position, recorded_at, description) VALUES ($1, $1, $2, $3, $4, $4, $5, $3)`,
    [`e${position}`, streamId, type, position, recordedAt],
  );
  for (const [line, posting] of postings.entries()) {
    await db.query(
      `INSERT INTO ledger_postings (entry_id, line, account, debit, credit, commit_position, prepare_position, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
      [`e${position}`, line + 1, posting.account, Math.max(0, -posting.amount), Math.max(0, posting.amount), position, recordedAt],
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
  const rangePayout = (merchantId: string, amount: number) =>
    ({ payoutId: `po_range_${merchantId}`, merchantId, amount, after: null, through: '3-3', requestedAt: '2030-01-01T01:00:00.000Z' }) as unknown as PayoutView;

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

  describe('a merchant with a holding period of 2 days', () => {
    const payable = 'merchant:h-1:payable';
    const first = { payoutId: 'po_h1_first', merchantId: 'h-1', amount: 8_000, after: null, through: '13-13', requestedAt: '2030-01-01T01:00:00.000Z' } as PayoutView;
    const second = { payoutId: 'po_h1_second', merchantId: 'h-1', amount: 20_000, after: '13-13', through: '16-16', requestedAt: '2030-01-03T06:00:00.000Z' } as PayoutView;

    beforeAll(async () => {
      // 100.00 earned before the holding period was set; then 210.00 of an order (10.00 of it h-1's own fee,
      // never held) and a transfer out of 30.00; the first payout; then 70.00 earned a day later.
      await entry(db, 5, 'OrderPaid', 'order-ord_h0', [
        { account: 'provider:clearing', amount: -10_000 },
        { account: payable, amount: 10_000 },
      ]);
      await db.query(`INSERT INTO payout_delays (merchant_id, commit_position, prepare_position, delay_days) VALUES ('h-1', 10, 10, 2)`);
      await entry(db, 11, 'OrderPaid', 'order-ord_h1', [
        { account: 'provider:clearing', amount: -21_000 },
        { account: payable, amount: 20_000 },
        { account: 'merchant:h-1:fees', amount: 1_000 },
      ]);
      await entry(db, 12, 'TransferCreated', 'transfer-tr_h1', [
        { account: payable, amount: -3_000 },
        { account: 'merchant:s-1:payable', amount: 3_000 },
      ]);
      await entry(db, 14, 'PayoutRequested', 'payout-po_h1_first', [
        { account: payable, amount: -7_000 },
        { account: 'merchant:h-1:fees', amount: -1_000 },
        { account: 'payouts:in-transit', amount: 8_000 },
      ]);
      await entry(db, 15, 'OrderPaid', 'order-ord_h2', [{ account: 'provider:clearing', amount: -7_000 }, { account: payable, amount: 7_000 }], new Date('2030-01-02T12:00:00.000Z'));
      for (const payout of [first, second]) {
        await db.query(`INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document) VALUES ($1, 'h-1', 'PAID', $2, $3, $3, $4)`, [
          payout.payoutId,
          payout.amount,
          payout.requestedAt,
          JSON.stringify(payout),
        ]);
      }
    });

    it('gives each line of a payout what the holding period kept of it on the day it was decided, as the decision left it, and when it becomes available', async () => {
      const lines = await payoutRangeLines(db, first, undefined, 10);
      expect(lines.map(({ eventId, net, held, availableOn }) => ({ eventId, net, held, availableOn }))).toEqual([
        { eventId: 'e5', net: 10_000, held: 0, availableOn: null },
        { eventId: 'e11', net: 21_000, held: 20_000, availableOn: '2030-01-03' },
        { eventId: 'e12', net: -3_000, held: 0, availableOn: null },
      ]);
      // What the lines paid is the payout: what the decision found held at its position and instant is what they hold.
      expect(lines.reduce((sum, line) => sum + line.net - line.held, 0)).toBe(first.amount);
      expect(await payableNotYetAvailable(db, 'h-1', { commit: 13n, prepare: 13n }, new Date(first.requestedAt))).toBe(20_000);
      expect(await payoutReleasedLines(db, first, undefined, 10)).toEqual([]);
    });

    it('gives the next payout the credits the one before left on hold and it paid, a line each with when it was earned and became available', async () => {
      const released = await payoutReleasedLines(db, second, undefined, 10);
      expect(released.map(({ eventId, recordedAt, net, fee, availableOn }) => ({ eventId, recordedAt, net, fee, availableOn }))).toEqual([
        { eventId: 'e11', recordedAt: at(11), net: 20_000, fee: 0, availableOn: '2030-01-03' },
      ]);
      // Its own range's credit of the day after is held in its turn.
      expect((await payoutRangeLines(db, second, undefined, 10)).map(({ eventId, net, held, availableOn }) => ({ eventId, net, held, availableOn }))).toEqual([
        { eventId: 'e15', net: 7_000, held: 7_000, availableOn: '2030-01-04' },
      ]);
      // Paged after a credit, the page is empty; a payout decided before the day it became available has none.
      expect(await payoutReleasedLines(db, second, released[0].position, 10)).toEqual([]);
      expect(await payoutReleasedLines(db, { ...second, payoutId: 'po_h1_early', requestedAt: '2030-01-02T06:00:00.000Z' }, undefined, 10)).toEqual([]);
    });

    /** Every movement of the payout, a page of `limit` at a time, each page after the last eventId of the one before. */
    async function walk(payout: PayoutView, limit: number) {
      const movements = [];
      let startingAfter: string | undefined;
      for (;;) {
        const page = (await payoutMovementsPage(db, payout, limit, startingAfter))!;
        movements.push(...page.movements);
        if (!page.hasMore) return movements;
        startingAfter = page.movements.at(-1)!.eventId;
      }
    }

    /** The payout's lines as its report reads them: released, then its range, then what is carried. */
    async function reportLines(payout: PayoutView) {
      const released = (await payoutReleasedLines(db, payout, undefined, 100)).map((line) => ({ eventId: line.eventId, amount: line.net, ...releasedOutcome(line) }));
      const range = (await payoutRangeLines(db, payout, undefined, 100)).map((line) => ({ eventId: line.eventId, amount: line.net, ...rangeOutcome(line) }));
      const carried = payout.amount - [...released, ...range].reduce((sum, line) => sum + line.paid, 0);
      return [...released, ...range, ...(carried === 0 ? [] : [{ eventId: 'carried', amount: carried, status: 'CARRIED', availableOn: null, paid: carried }])];
    }

    it("pages a payout's movements as its report reads them, held and released lines alike, their paid summing to its amount, whatever the page size", async () => {
      // The second payout with 50.00 more: what a failed payout returned, carried.
      const returned = { ...second, payoutId: 'po_h1_returned', amount: 25_000 };
      expect(await reportLines(first)).toEqual([
        { eventId: 'e5', amount: 10_000, status: 'PAID', availableOn: null, paid: 10_000 },
        { eventId: 'e11', amount: 21_000, status: 'HELD', availableOn: '2030-01-03', paid: 1_000 },
        { eventId: 'e12', amount: -3_000, status: 'PAID', availableOn: null, paid: -3_000 },
      ]);
      expect(await reportLines(second)).toEqual([
        { eventId: 'e11', amount: 20_000, status: 'RELEASED', availableOn: '2030-01-03', paid: 20_000 },
        { eventId: 'e15', amount: 7_000, status: 'HELD', availableOn: '2030-01-04', paid: 0 },
      ]);
      expect((await reportLines(returned)).at(-1)).toEqual({ eventId: 'carried', amount: 5_000, status: 'CARRIED', availableOn: null, paid: 5_000 });
      for (const payout of [first, second, returned]) {
        for (const limit of [1, 2, 3, 10]) expect(await walk(payout, limit)).toEqual(await reportLines(payout));
        expect((await walk(payout, 1)).reduce((sum, line) => sum + line.paid, 0)).toBe(payout.amount);
      }
      expect(await payoutCarried(db, second)).toBe(0);
      expect(await payoutCarried(db, returned)).toBe(5_000);
    });

    it('takes as a cursor only a movement of the payout: a released credit, a line of its range, its carried line', async () => {
      expect((await payoutMovementsPage(db, second, 10, 'e11'))!.movements.map((m) => m.eventId)).toEqual(['e15']);
      expect(await payoutMovementsPage(db, second, 10, 'e15')).toEqual({ movements: [], hasMore: false });
      expect(await payoutMovementsPage(db, second, 10, 'carried')).toEqual({ movements: [], hasMore: false });
      // Before its range but never held, the payout's own entry, another merchant's: none of its movements.
      for (const eventId of ['e5', 'e12', 'e14', 'e1']) expect(await payoutMovementsPage(db, second, 10, eventId)).toBeUndefined();
    });
  });
});
