import { randomUUID } from 'node:crypto';
import { migrate, type SqlClient, type SqlExecutor } from '@app/database';
import { type EscrowCommand, type EscrowEvent, escrowDecider, fold, santim } from '@app/domain';
import { EVENT_STORE_MIGRATIONS, type LogPosition, PostgresEventStore, type RecordedEvent, WrongExpectedRevision } from '@app/event-store';
import { CREATED_AT, DURING_WINDOW, escrowCreated } from '../../../domain/src/testing/escrow.fixtures';
import { READ_MODEL_MIGRATIONS } from '../read-model.migrations';
import { rebuildProjections } from '../projector/rebuild';
import { BatchHistories } from '../projector/stream-histories';
import { projectUpTo, READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';
import { inlinePayablesView, payablesView } from './payables.projection';

const MERCHANT = 'platform-1';

/** An escrow's next events as the command runner appends them: sealed with their time, and the state after them. */
function next(history: readonly EscrowEvent[], command: EscrowCommand | EscrowEvent) {
  const events = 'type' in command && command.type === 'EscrowCreated' ? [command as EscrowEvent] : escrowDecider.decide(command as EscrowCommand, fold(escrowDecider, history));
  const recordedAt = new Date();
  return {
    events: events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: {}, recordedAt })),
    folded: { state: fold(escrowDecider, [...history, ...events]), startedAt: recordedAt },
    all: [...history, ...events],
  };
}

const created = (i: string) => escrowCreated({ escrowId: `esc_${i}`, merchantId: MERCHANT, orderId: `order_${i}`, requestFingerprint: `fp_${i}`, createdAt: CREATED_AT });
const attempt = (i: string): EscrowCommand => ({
  type: 'InitiatePayment',
  data: { attemptId: `att_${i}`, provider: 'sandbox', providerReference: `SBX-${i}`, otpRequired: false, at: DURING_WINDOW },
});
const pay = (i: string): EscrowCommand => ({ type: 'RecordPayment', data: { externalReferenceId: `SBX-${i}`, paymentType: 'telebirr', amount: santim(22_500), at: DURING_WINDOW } });

async function viewRows(db: SqlClient): Promise<string[]> {
  const rows = await db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM payables_view t ORDER BY payable_id`);
  return rows.map((r) => r.row);
}

/** A projector's transaction that read the view's revisions before an append committed its row: it finds none. */
function readBeforeTheAppend(tx: SqlExecutor): SqlExecutor {
  return {
    ...tx,
    query: async <Row>(sql: string, params?: readonly unknown[]) => (sql.trimStart().startsWith('SELECT payable_id AS key') ? [] : tx.query<Row>(sql, params)),
  };
}

/** The payables_view row's and the stream's events' transactions (a row's xmin is the low 32 bits of its writer's xid8). */
async function transactionsOf(db: SqlClient, escrowId: string): Promise<{ row: string; events: string[] }> {
  const [row] = await db.query<{ xmin: string }>(`SELECT xmin::text AS xmin FROM payables_view WHERE payable_id = $1`, [escrowId]);
  const events = await db.query<{ xid: string }>(`SELECT (transaction_id::text::bigint % 4294967296)::text AS xid FROM events WHERE stream_id = $1`, [`escrow-${escrowId}`]);
  return { row: row?.xmin, events: events.map((e) => e.xid) };
}

/**
 * The payables view written inline: each append's statement upserts its stream's row from the state
 * the writer folded, and the projector behind it leaves that row as it is.
 */
describe.each(READ_MODEL_DATABASES)('the payables view written inline by the store on %s', (_name, open) => {
  let db: ReadModelDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    db = await open('inline');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db.client, db.schema, 'read-models', READ_MODEL_MIGRATIONS);
    store = new PostgresEventStore(db.client, { pollIntervalMs: 10, inline: inlinePayablesView });
    await store.append(`merchant-${MERCHANT}`, [{ type: 'MerchantRegistered', data: { merchantId: MERCHANT, name: 'Merchant', registeredAt: CREATED_AT } }], 'no_stream');
  });
  afterEach(() => db.drop());

  it('writes the row in the transaction that appends the events, at their revision', async () => {
    const first = next([], created('1'));
    const result = await store.append('escrow-esc_1', first.events, 'no_stream', { folded: first.folded });
    expect(result.viewWritten).toBe(true);
    const [row] = await db.client.query<{ status: string; revision: string; merchant_id: string }>(`SELECT status, revision::text AS revision, merchant_id FROM payables_view`);
    expect(row).toEqual({ status: 'PENDING', revision: '0', merchant_id: MERCHANT });
    const { row: rowXid, events } = await transactionsOf(db.client, 'esc_1');
    expect(events).toEqual([rowXid]);

    const second = next(first.all, attempt('1'));
    await store.append('escrow-esc_1', second.events, 0n, { folded: second.folded });
    const [moved] = await db.client.query<{ revision: string }>(`SELECT revision::text AS revision FROM payables_view`);
    expect(moved.revision).toBe('1');
  });

  it('writes no row for an append that is refused or fails', async () => {
    const refused = next([], created('2'));
    await expect(store.append('escrow-esc_2', refused.events, 4n, { folded: refused.folded })).rejects.toBeInstanceOf(WrongExpectedRevision);
    const taken = next([], created('3'));
    await store.append('escrow-esc_3', taken.events, 'no_stream', { folded: taken.folded });
    const duplicate = next([], created('4'));
    await expect(store.append('escrow-esc_4', [{ ...duplicate.events[0], id: taken.events[0].id }], 'no_stream', { folded: duplicate.folded })).rejects.toThrow();
    expect((await db.client.query<{ payable_id: string }>(`SELECT payable_id FROM payables_view`)).map((r) => r.payable_id)).toEqual(['esc_3']);
  });

  it('leaves the row to the projector when the append does not pin the history its state came from', async () => {
    const unpinned = next([], created('8'));
    const result = await store.append('escrow-esc_8', unpinned.events, 'any', { folded: unpinned.folded });
    expect(result.viewWritten).toBe(false);
    expect(await viewRows(db.client)).toEqual([]);
  });

  it('writes each group-committed append its own row, and none for the one refused', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `g${i}`);
    const outcomes = await Promise.allSettled(
      ids.map((id, i) => {
        const first = next([], created(id));
        return store.append(`escrow-esc_${id}`, first.events, i === 7 ? 0n : 'no_stream', { folded: first.folded });
      }),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    const commits = new Set(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.position.commit] : [])));
    expect(commits.size).toBeLessThan(15);
    const rows = await db.client.query<{ payable_id: string; merchant_order_id: string }>(`SELECT payable_id, merchant_order_id FROM payables_view ORDER BY payable_id`);
    const written = ids.filter((_, i) => i !== 7).sort();
    expect(rows.map((r) => r.payable_id)).toEqual(written.map((id) => `esc_${id}`));
    expect(rows.map((r) => r.merchant_order_id)).toEqual(written.map((id) => `order_${id}`));
    for (const id of written) {
      const { row, events } = await transactionsOf(db.client, `esc_${id}`);
      expect(events).toEqual([row]);
    }
  });

  it('is left as it is by the projector, and a rebuild from the log writes the same rows', async () => {
    let head: LogPosition | undefined;
    for (const id of ['5', '6']) {
      const first = next([], created(id));
      await store.append(`escrow-esc_${id}`, first.events, 'no_stream', { folded: first.folded });
      const second = next(first.all, attempt(id));
      await store.append(`escrow-esc_${id}`, second.events, 0n, { folded: second.folded });
      const third = next(second.all, pay(id));
      head = (await store.append(`escrow-esc_${id}`, third.events, 1n, { folded: third.folded })).position;
    }
    const inline = await viewRows(db.client);
    const writers = await Promise.all(['esc_5', 'esc_6'].map((id) => transactionsOf(db.client, id)));
    await projectUpTo(db, store, head!, 3);
    expect(await viewRows(db.client)).toEqual(inline);
    expect(await Promise.all(['esc_5', 'esc_6'].map((id) => transactionsOf(db.client, id)))).toEqual(writers);
    await rebuildProjections(db.client, store, db.schema, [payablesView]);
    expect(await viewRows(db.client)).toEqual(inline);
  });

  it('is never stepped back by a projector applying an event older than the row', async () => {
    const first = next([], created('7'));
    await store.append('escrow-esc_7', first.events, 'no_stream', { folded: first.folded });
    const [createdEvent] = await store.readStream('escrow-esc_7');
    const second = next(first.all, attempt('7'));
    await store.append('escrow-esc_7', second.events, 0n, { folded: second.folded });
    const before = await viewRows(db.client);
    const histories = new BatchHistories(new Map<string, RecordedEvent[]>([['escrow-esc_7', [createdEvent]]]));
    await db.client.transaction((tx) => payablesView.applyBatch(tx, [createdEvent], { histories }));
    expect(await viewRows(db.client)).toEqual(before);
    // The race itself: the projector read the view's revisions before the append's row committed, so
    // it folds the older row and only the upsert's guard keeps it out.
    await db.client.transaction((tx) => payablesView.applyBatch(readBeforeTheAppend(tx), [createdEvent], { histories }));
    expect(await viewRows(db.client)).toEqual(before);
  });
});
