import { migrate, type SqlClient } from '@app/database';
import { latestDeliveries, payableDeliveries, pendingDeliveries } from './callbacks/deliveries.reader';
import { allMerchants, merchantName, payableOwner, registeredMerchants } from './merchants/merchants.reader';
import { autoReleasesDue, expiriesDue } from './payables/payable-deadlines.reader';
import { merchantPayable, payableByMerchantOrderId, payableForCheckout, payablesPage } from './payables/payables.reader';
import { advanceCheckpoint, checkpoints } from './projector/projection-progress';
import { merchantPayout, payoutsPage, payoutsUnderWay } from './payouts/payouts.reader';
import { schedulesToPay } from './payouts/payout-schedules.reader';
import { openPaymentReference, openProviderOperations } from './provider-operations/provider-operations.reader';
import { READ_MODEL_MIGRATIONS } from './read-model.migrations';
import { READ_MODEL_DATABASES, type ReadModelDatabase } from './testing/read-model-databases';

const at = (minutes: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + minutes * 60_000);

async function payable(db: SqlClient, id: string, status: string, expiresAt: Date, autoReleaseAt: Date | null): Promise<void> {
  await db.query(
    `INSERT INTO payables_view (payable_id, kind, merchant_id, status, payment_status, amount, expires_at, created_at, updated_at, document, auto_release_at)
     VALUES ($1, 'escrow', 'm-1', $2, 'NONE', 100, $3, $4, $4, '{}', $5)`,
    [id, status, expiresAt, at(0), autoReleaseAt],
  );
}

async function operation(db: SqlClient, id: string, kind: string, status: string, lastNewsAt: Date, payableClosedAt: Date | null): Promise<void> {
  await db.query(
    `INSERT INTO provider_operations (operation_id, kind, payable_id, provider_reference, status, opened_at, last_news_at, payable_closed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
    [id, kind, `pay-${id}`, `ref-${id}`, status, lastNewsAt, payableClosedAt],
  );
}

async function payout(db: SqlClient, id: string, merchantId: string, status: string, destinationVersion: number): Promise<void> {
  await db.query(
    `INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document) VALUES ($1, $2, $3, 100, $4, $4, $5)`,
    [id, merchantId, status, at(5), JSON.stringify({ payoutId: id, merchantId, status, destinationVersion })],
  );
}

async function schedule(db: SqlClient, merchantId: string, kind: string, minimum: number, balance: number, hasDestination = true): Promise<void> {
  const account = `merchant:${merchantId}:payable`;
  await db.query(
    `INSERT INTO payout_schedules (merchant_id, payable_account, schedule_kind, schedule, minimum_amount, has_destination, last_period, schedule_set_at, destination_version)
     VALUES ($1, $2, $3, $4, $5, $6, '2030-01-01', $7, 2)`,
    [merchantId, account, kind, JSON.stringify({ kind }), minimum, hasDestination, at(1)],
  );
  await db.query(`INSERT INTO ledger_balances (account, debit, credit) VALUES ($1, 0, $2)`, [account, balance]);
}

describe.each(READ_MODEL_DATABASES)('the read models\' readers on %s', (_name, open) => {
  let database: ReadModelDatabase;
  let db: SqlClient;

  beforeAll(async () => {
    database = await open('work_reads');
    db = database.client;
    await migrate(db, database.schema, 'read-models', READ_MODEL_MIGRATIONS);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('finds the unpaid payables that expire by the horizon, and the releases due by it', async () => {
    await payable(db, 'esc_due', 'PENDING', at(10), at(30));
    await payable(db, 'esc_later', 'PENDING', at(90), at(90));
    await payable(db, 'esc_paid', 'FUNDED', at(10), null);
    expect(await expiriesDue(db, at(60))).toEqual([{ payableId: 'esc_due', at: at(10) }]);
    expect(await autoReleasesDue(db, at(60))).toEqual([{ payableId: 'esc_due', at: at(30) }]);
    expect((await autoReleasesDue(db, at(90))).map((due) => due.payableId).sort()).toEqual(['esc_due', 'esc_later']);
  });

  it('finds the open provider operations but those of a payable closed before the window', async () => {
    await operation(db, 'att_open', 'payment', 'OPEN', at(3), null);
    await operation(db, 'ref_open', 'refund', 'OPEN', at(4), at(100));
    await operation(db, 'att_stale', 'payment', 'OPEN', at(5), at(10));
    await operation(db, 'att_done', 'payment', 'SUCCEEDED', at(6), null);
    const open = await openProviderOperations(db, at(50));
    expect(open.sort((a, b) => a.operationId.localeCompare(b.operationId))).toEqual([
      { operationId: 'att_open', kind: 'payment', payableId: 'pay-att_open', lastNewsAt: at(3) },
      { operationId: 'ref_open', kind: 'refund', payableId: 'pay-ref_open', lastNewsAt: at(4) },
    ]);
    expect(await openPaymentReference(db, 'pay-att_open', 'att_open')).toBe('ref-att_open');
    expect(await openPaymentReference(db, 'pay-att_done', 'att_done')).toBeUndefined();
    expect(await openPaymentReference(db, 'pay-ref_open', 'ref_open')).toBeUndefined();
  });

  it('finds the payouts neither paid nor failed', async () => {
    await payout(db, 'po_requested', 'm-1', 'REQUESTED', 1);
    await payout(db, 'po_sent', 'm-1', 'SENT', 1);
    await payout(db, 'po_paid', 'm-1', 'PAID', 1);
    expect((await payoutsUnderWay(db)).sort((a, b) => a.payoutId.localeCompare(b.payoutId))).toEqual([
      { payoutId: 'po_requested', merchantId: 'm-1', lastNewsAt: at(5) },
      { payoutId: 'po_sent', merchantId: 'm-1', lastNewsAt: at(5) },
    ]);
  });

  it("lists a merchant's payouts newest first a page at a time and finds one only for its merchant", async () => {
    await db.query(
      `INSERT INTO payouts_view (payout_id, merchant_id, status, amount, requested_at, last_news_at, document) VALUES ('po_x1', 'm-x', 'PAID', 100, $1, $1, '{"payoutId":"po_x1"}'), ('po_x2', 'm-x', 'PAID', 100, $2, $2, '{"payoutId":"po_x2"}')`,
      [at(1), at(2)],
    );
    expect(await payoutsPage(db, 'm-x', 10)).toEqual({ payouts: [{ payoutId: 'po_x2' }, { payoutId: 'po_x1' }], hasMore: false });
    expect(await payoutsPage(db, 'm-x', 1)).toEqual({ payouts: [{ payoutId: 'po_x2' }], hasMore: true });
    expect(await payoutsPage(db, 'm-x', 1, 'po_x2')).toEqual({ payouts: [{ payoutId: 'po_x1' }], hasMore: false });
    expect(await payoutsPage(db, 'm-1', 1, 'po_x2')).toBeUndefined();
    expect(await merchantPayout(db, 'po_x1', 'm-x')).toEqual({ payoutId: 'po_x1' });
    expect(await merchantPayout(db, 'po_x1', 'm-1')).toBeUndefined();
  });

  it('finds the schedules that may pay: not manual, with a destination no payout failed to, and the minimum in the payable', async () => {
    await schedule(db, 'm-ready', 'daily', 500, 500);
    await schedule(db, 'm-short', 'daily', 500, 499);
    await schedule(db, 'm-manual', 'manual', 1, 1_000);
    await schedule(db, 'm-nowhere', 'weekly', 1, 1_000, false);
    await schedule(db, 'm-failed', 'daily', 1, 1_000);
    await payout(db, 'po_failed', 'm-failed', 'FAILED', 2);
    await schedule(db, 'm-failed-before', 'daily', 1, 1_000);
    await payout(db, 'po_failed_old', 'm-failed-before', 'FAILED', 1);
    const ready = await schedulesToPay(db, at(10));
    expect(ready.sort((a, b) => a.merchantId.localeCompare(b.merchantId))).toEqual([
      { merchantId: 'm-failed-before', schedule: { kind: 'daily' }, scheduleSetAt: at(1), lastPeriod: '2030-01-01' },
      { merchantId: 'm-ready', schedule: { kind: 'daily' }, scheduleSetAt: at(1), lastPeriod: '2030-01-01' },
    ]);
  });

  it('passes by a schedule whose money is on hold until enough of it is available, as a payout decided then would find it', async () => {
    // 1,000.00 in the payable, 800.00 of it credited under a holding period of 2 days: available from 2030-01-03 (Addis Ababa).
    await schedule(db, 'm-held', 'daily', 500, 100_000);
    await db.query(`INSERT INTO payout_delays (merchant_id, commit_position, prepare_position, delay_days) VALUES ('m-held', 1, 1, 2)`);
    await db.query(
      `INSERT INTO ledger_entries (entry_id, event_id, stream_id, event_type, commit_position, prepare_position, recorded_at, description) VALUES ('h1', 'h1', 'order-ord_h1', 'OrderPaid', 2, 2, $1, 'Order paid')`,
      [at(5)],
    );
    await db.query(
      `INSERT INTO ledger_postings (entry_id, line, account, debit, credit, commit_position, prepare_position, recorded_at) VALUES ('h1', 1, 'merchant:m-held:payable', 0, 80000, 2, 2, $1)`,
      [at(5)],
    );
    const listed = async (instant: Date) => (await schedulesToPay(db, instant)).some((s) => s.merchantId === 'm-held');
    expect(await listed(at(10))).toBe(true);
    await db.query(`UPDATE payout_schedules SET minimum_amount = 20001 WHERE merchant_id = 'm-held'`);
    expect(await listed(at(10))).toBe(false);
    expect(await listed(new Date('2030-01-02T20:59:59.999Z'))).toBe(false);
    expect(await listed(new Date('2030-01-02T21:00:00.000Z'))).toBe(true);
  });

  it("finds a merchant's payable by our id or its own orderId, and a customer's checkout with the merchant's name", async () => {
    await db.query(`INSERT INTO merchants_view (merchant_id, name, registered_at) VALUES ('m-p', 'Abebe Books', $1)`, [at(0)]);
    await db.query(
      `INSERT INTO payables_view (payable_id, kind, merchant_id, merchant_order_id, status, payment_status, amount, expires_at, created_at, updated_at, document)
       VALUES ('esc_p1', 'escrow', 'm-p', 'shop-7', 'PENDING', 'PENDING', 100, $1, $1, $2, '{"id":"esc_p1","description":"Books"}'),
              ('ord_p2', 'order', 'm-p', NULL, 'PAID', 'PAID', 250, $1, $2, $2, '{"id":"ord_p2","description":"Pens 50%"}'),
              ('ord_other', 'order', 'm-other', NULL, 'PENDING', 'PENDING', 250, $1, $1, $1, '{"id":"ord_other"}')`,
      [at(1), at(2)],
    );
    expect(await merchantPayable(db, 'm-p', 'esc_p1')).toEqual({ view: { id: 'esc_p1', description: 'Books' }, updatedAt: at(2) });
    expect(await merchantPayable(db, 'm-p', 'esc_p1', 'order')).toBeUndefined();
    expect(await merchantPayable(db, 'm-p', 'ord_other')).toBeUndefined();
    expect((await payableByMerchantOrderId(db, 'm-p', 'shop-7'))?.view.id).toBe('esc_p1');
    expect(await payableByMerchantOrderId(db, 'm-other', 'shop-7')).toBeUndefined();
    expect(await payableForCheckout(db, 'ord_p2')).toEqual({ view: { id: 'ord_p2', description: 'Pens 50%' }, merchantName: 'Abebe Books' });
    expect(await payableForCheckout(db, 'ord_other')).toEqual({ view: { id: 'ord_other' }, merchantName: undefined });
  });

  it("pages a merchant's payables newest first, filtered by kind, status and a search of id or reference", async () => {
    const page = (filter: Partial<Parameters<typeof payablesPage>[2]>) => payablesPage(db, 'm-p', { page: 1, pageSize: 10, ...filter });
    expect(await page({})).toEqual({
      rows: [
        { kind: 'order', id: 'ord_p2', reference: 'Pens 50%', status: 'PAID', amount: 250, createdAt: at(2) },
        { kind: 'escrow', id: 'esc_p1', reference: 'shop-7', status: 'PENDING', amount: 100, createdAt: at(1) },
      ],
      hasNext: false,
    });
    expect((await page({ kind: 'escrow' })).rows.map((r) => r.id)).toEqual(['esc_p1']);
    expect((await page({ status: 'PAID' })).rows.map((r) => r.id)).toEqual(['ord_p2']);
    expect((await page({ search: 'SHOP' })).rows.map((r) => r.id)).toEqual(['esc_p1']);
    expect((await page({ search: '%' })).rows.map((r) => r.id)).toEqual(['ord_p2']);
    expect(await page({ pageSize: 1 })).toMatchObject({ rows: [{ id: 'ord_p2' }], hasNext: true });
    expect(await page({ pageSize: 1, page: 2 })).toMatchObject({ rows: [{ id: 'esc_p1' }], hasNext: false });
  });

  it('names merchants, newest first for a chooser and in registration order for the operator', async () => {
    await db.query(`INSERT INTO merchants_view (merchant_id, name, registered_at) VALUES ('m-q', 'Almaz Coffee', $1)`, [at(3)]);
    expect(await merchantName(db, 'm-q')).toBe('Almaz Coffee');
    expect(await merchantName(db, 'm-none')).toBeUndefined();
    expect(await registeredMerchants(db, 1)).toEqual([{ merchantId: 'm-q', name: 'Almaz Coffee' }]);
    expect(await allMerchants(db)).toEqual([
      { merchantId: 'm-p', name: 'Abebe Books', registeredAt: at(0) },
      { merchantId: 'm-q', name: 'Almaz Coffee', registeredAt: at(3) },
    ]);
  });

  it("names a payable's owner: a merchant by its registered name, an account by its legal name and its platform", async () => {
    const account = (id: string, platformId: string, name: string) =>
      db.query(
        `INSERT INTO accounts_view (account_id, merchant_id, status, document, created_at, updated_at) VALUES ($1, $2, 'VERIFIED', $3, $4, $4)`,
        [id, platformId, JSON.stringify({ accountId: id, merchantId: platformId, name }), at(4)],
      );
    await account('acct_owner1', 'm-p', 'Tigist Textiles');
    await account('acct_orphan', 'm-gone', 'Yonas Pottery');
    expect(await payableOwner(db, 'acct_owner1')).toEqual({ kind: 'account', name: 'Tigist Textiles', platformId: 'm-p', platformName: 'Abebe Books' });
    expect(await payableOwner(db, 'acct_orphan')).toEqual({ kind: 'account', name: 'Yonas Pottery', platformId: 'm-gone', platformName: undefined });
    expect(await payableOwner(db, 'm-p')).toEqual({ kind: 'merchant', name: 'Abebe Books' });
    expect(await payableOwner(db, 'courier-1')).toBeUndefined();
  });

  it("lists a merchant's latest deliveries, a payable's in the order of their events, and those pending", async () => {
    const delivery = (id: string, orderId: string, merchantOrderId: string | null, status: string, created: number, commit: number) =>
      db.query(
        `INSERT INTO callback_deliveries_view (delivery_id, merchant_id, order_id, merchant_order_id, status, source_commit, source_prepare, created_at, updated_at, document)
         VALUES ($1, 'm-d', $2, $3, $4, $5, $5, $6, $6, $7)`,
        [id, orderId, merchantOrderId, status, commit, at(created), JSON.stringify({ deliveryId: id, sourcePosition: { commit: String(commit), prepare: String(commit) } })],
      );
    await delivery('d1', 'esc_d', 'shop-9', 'DELIVERED', 1, 20);
    await delivery('d2', 'esc_d', 'shop-9', 'PENDING', 2, 10);
    await delivery('d3', 'ord_e', null, 'PENDING', 3, 30);
    expect((await latestDeliveries(db, 'm-d', 2)).map((d) => d.delivery.deliveryId)).toEqual(['d3', 'd2']);
    expect(await payableDeliveries(db, 'm-d', 'shop-9')).toMatchObject([
      { delivery: { deliveryId: 'd2' }, createdAt: at(2), updatedAt: at(2) },
      { delivery: { deliveryId: 'd1' }, createdAt: at(1), updatedAt: at(1) },
    ]);
    expect((await payableDeliveries(db, 'm-d', 'esc_d')).map((d) => d.delivery.deliveryId)).toEqual(['d2', 'd1']);
    expect((await payableDeliveries(db, 'm-other', 'esc_d')).length).toBe(0);
    expect((await pendingDeliveries(db)).map((d) => d.deliveryId).sort()).toEqual(['d2', 'd3']);
  });

  it('moves a checkpoint only forward, and lists where each follower stands', async () => {
    await advanceCheckpoint(db, 'follower-a', { commit: 10n, prepare: 9n });
    await advanceCheckpoint(db, 'follower-a', { commit: 7n, prepare: 7n });
    await advanceCheckpoint(db, 'follower-b', { commit: 3n, prepare: 3n });
    await advanceCheckpoint(db, 'follower-b', { commit: 4n, prepare: 1n });
    const standing = (await checkpoints(db)).filter((c) => c.name.startsWith('follower-'));
    expect(standing.map(({ name, position }) => [name, position])).toEqual([
      ['follower-a', { commit: 10n, prepare: 9n }],
      ['follower-b', { commit: 4n, prepare: 1n }],
    ]);
    expect(standing[0].updatedAt).toBeInstanceOf(Date);
  });
});
