import type { SqlClient, SqlExecutor } from '@app/database';
import { type EscrowCommand, escrowDecider, type EscrowEvent, type Mode, santim, streams } from '@app/domain';
import { comparePositions, type LogPosition, PostgresEventStore } from '@app/event-store';
import { escrowCreated } from '../../../domain/src/testing/escrow.fixtures';
import { waitFor } from '../../../../test/support/wait';
import { LedgerReader } from './ledger.reader';
import { ProjectionProgress, readCheckpoint } from '../projector/projection-progress';
import { Projector } from '../projector/projector';
import { CORE_PROJECTIONS } from '../projector/projections';
import { decideAndAppend, type HistoryStream } from '../testing/decided-appends';
import { logAndViews, READ_MODEL_DATABASES, type ReadModelDatabase } from '../testing/read-model-databases';

/** The client with every statement its sessions send recorded, one list per session: a projector sends each batch on a session of its own. */
function recording(client: SqlClient, sessions: string[][]): SqlClient {
  return {
    singleConnection: client.singleConnection,
    query: <Row>(sql: string, params?: readonly unknown[]) => client.query<Row>(sql, params),
    copyRows: (table, columns, rows) => client.copyRows(table, columns, rows),
    transaction: (work) => client.transaction(work),
    listen: (channel, onNotify) => client.listen(channel, onNotify),
    exec: (sql) => client.exec(sql),
    close: () => client.close(),
    withSession: (work) =>
      client.withSession((session, lost) => {
        const sent: string[] = [];
        sessions.push(sent);
        const recorded: SqlExecutor = {
          query: <Row>(sql: string, params?: readonly unknown[]) => (sent.push(sql), session.query<Row>(sql, params)),
          copyRows: (table, columns, rows) => session.copyRows(table, columns, rows),
        };
        return work(recorded, lost);
      }),
  };
}

describe('the statements of a payment’s and a release’s projector batch (PostgreSQL)', () => {
  const [, open] = READ_MODEL_DATABASES[0];
  let db: ReadModelDatabase;
  let store: PostgresEventStore;
  let sessions: string[][];
  let projector: Projector | undefined;
  let head: LogPosition;

  beforeEach(async () => {
    db = await open('ledger_batches');
    store = await logAndViews(db);
    sessions = [];
  });
  afterEach(async () => {
    await projector?.stop();
    await db.drop();
  });

  const start = () => {
    projector = new Projector(recording(db.client, sessions), store, CORE_PROJECTIONS, new ProjectionProgress(db.client), {
      lockName: `projector:${db.schema}`,
      schema: db.schema,
    });
    projector.start();
  };
  const stop = async () => {
    await projector?.stop();
    projector = undefined;
  };

  /** The statements of each batch that applies what `append` appends, once the projector has applied it. */
  const batchesOf = async (append: () => Promise<LogPosition>): Promise<string[][]> => {
    const before = sessions.length;
    head = await append();
    await waitFor(async () => comparePositions(await readCheckpoint(db.client), head) >= 0, 'the projector to apply the batch');
    return sessions.slice(before).filter((sent) => sent.some((sql) => sql.includes('projection_checkpoints')));
  };
  const batchOf = async (append: () => Promise<LogPosition>): Promise<string[]> => {
    const batches = await batchesOf(append);
    expect(batches).toHaveLength(1);
    return batches[0];
  };
  const readsModes = (batch: readonly string[]) => batch.some((sql) => /^SELECT .*ledger_tenant_modes/s.test(sql));

  const tenant = async (mode: Mode): Promise<LogPosition> => {
    await store.append(streams.merchant(`plat_${mode}`), [{ type: 'MerchantRegistered', data: { merchantId: `plat_${mode}`, name: mode, registeredAt: new Date().toISOString(), mode } }], 'no_stream');
    const seller = await store.append(streams.account(`acct_${mode}`), [{ type: 'AccountCreated', data: { accountId: `acct_${mode}`, merchantId: `plat_${mode}` } }], 'no_stream');
    return seller.position;
  };
  const escrows = new Map<string, HistoryStream<EscrowEvent>>();
  const decide = async (id: string, command: EscrowCommand): Promise<LogPosition> => {
    const stream = escrows.get(id) ?? { id, history: [] };
    escrows.set(id, stream);
    const result = await decideAndAppend(store, stream, streams.escrow(id), command, escrowDecider);
    return result!.position;
  };
  const create = (id: string, mode: Mode) =>
    decide(id, {
      type: 'CreateEscrow',
      data: escrowCreated({
        escrowId: id,
        merchantId: `plat_${mode}`,
        orderId: `shop-${id}`,
        requestFingerprint: `fp-${id}`,
        amount: santim(10_000),
        allocations: [{ merchantId: `acct_${mode}`, amount: santim(10_000) }],
        items: [{ productId: 'p-1', itemName: 'Goods', quantity: 1, unitPrice: santim(10_000) }],
        createdAt: new Date().toISOString(),
        expiresAt: '2099-01-01T00:00:00.000Z',
      }).data,
    } as EscrowCommand);
  const pay = (id: string) => decide(id, { type: 'RecordPayment', data: { externalReferenceId: `ref-${id}`, paymentType: 'telebirr', amount: santim(10_000), at: new Date().toISOString() } });
  const release = (id: string, mode: Mode) =>
    decide(id, { type: 'ReleaseFunds', data: { escrowId: id, merchantId: `plat_${mode}`, releases: [{ merchantId: `acct_${mode}`, amount: undefined }], at: new Date().toISOString() } });

  it('reads a tenant’s mode at its first sight only: a later payment or release is its writes in one transaction, posted to its mode’s books', async () => {
    start();
    for (const mode of ['test', 'live'] as const) {
      expect((await batchesOf(() => tenant(mode))).every(readsModes)).toBe(true);
      expect(await batchOf(() => create(`esc_${mode}`, mode))).toHaveLength(1);
      // BEGIN, the ledger's entries, the final statement (the views, the running balances, the check's read, the checkpoint), COMMIT.
      expect(await batchOf(() => pay(`esc_${mode}`))).toEqual(['BEGIN', expect.stringContaining('ledger_entries'), expect.stringContaining('projection_checkpoints'), 'COMMIT']);
      expect(await batchOf(() => release(`esc_${mode}`, mode))).toEqual(['BEGIN', expect.stringContaining('ledger_entries'), expect.stringContaining('projection_checkpoints'), 'COMMIT']);
    }

    // Another projector (another process, or this one started again) has not seen the tenants: its first payment of each reads their modes.
    await stop();
    start();
    await batchOf(() => create('esc_live_2', 'live'));
    const first = await batchOf(() => pay('esc_live_2'));
    expect(readsModes(first)).toBe(true);
    expect(first).toHaveLength(5);
    expect(await batchOf(() => release('esc_live_2', 'live'))).toHaveLength(4);

    // Each mode's books hold its own tenants' accounts only, and balance.
    const ledger = new LedgerReader(db.client);
    for (const [mode, other] of [['test', 'live'], ['live', 'test']] as const) {
      const books = await ledger.trialBalance(mode);
      expect(books.balanced).toBe(true);
      expect(books.accounts.map((a) => a.account)).toEqual(expect.arrayContaining([expect.stringContaining(`acct_${mode}`)]));
      expect(books.accounts.filter((a) => a.account.includes(`_${other}`))).toEqual([]);
    }
  });
});
