import { type PayoutEvent, type PayoutStatus, type Santim, streams } from '@app/domain';
import { comparePositions, type LogPosition, type NewEvent, type RecordedEvent, START } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../../event-store/src/testing/in-memory-event-store';
import { AccountStreamPayout, type PayoutViewAt } from './account-stream-payout';

const M = 'm_1';
const AT = '2030-01-01T10:00:00.000Z';
const SYSTEM = { actor: { type: 'system' as const, id: 'payouts' } };
const ACCOUNT = streams.payouts(M);

const requested = (payoutId: string, amount: number): NewEvent => ({
  type: 'PayoutRequested',
  data: { merchantId: M, payoutId, amount, destinationVersion: 1, settles: [{ eventId: `e-${payoutId}`, amount }], trigger: 'on-demand', requestedAt: AT },
});
const paid = (payoutId: string) => ({ type: 'RecordPayoutPaid' as const, data: { payoutId, externalReferenceId: `TR-${payoutId}`, at: AT, callbackUrl: null } });
const sent = (payoutId: string) => ({ type: 'RecordPayoutSent' as const, data: { payoutId, providerReference: payoutId, at: AT } });

/**
 * Outcomes of payouts still in flight in a merchant's payout account stream, from before each payout
 * had its own: recorded once, at a cost that does not grow with the account's history.
 */
/** Counts reads of the account's whole history. */
class CountingStore extends InMemoryEventStore {
  historyReads = 0;

  override async readStream(streamId: string): Promise<RecordedEvent[]> {
    if (streamId === ACCOUNT) this.historyReads += 1;
    return super.readStream(streamId);
  }
}

describe('a payout of the payout account stream', () => {
  let store: CountingStore;
  let runner: CommandRunner;
  /** The account's events, read along the log (not counted). */
  const accountEvents = async () => (await store.readAll(START, 10_000)).filter((e) => e.streamId === ACCOUNT);

  /** The payouts view: each payout's status from the stream's events up to `position`, as the projection keeps it. */
  const viewAt: PayoutViewAt = async (merchantId, payoutId, position: LogPosition) => {
    let found: { amount: Santim; status: PayoutStatus } | undefined;
    for (const e of await accountEvents()) {
      if (comparePositions(e.position, position) > 0) break;
      const event = e as unknown as PayoutEvent;
      if (event.data.merchantId !== M || !('payoutId' in event.data) || event.data.payoutId !== payoutId) continue;
      if (event.type === 'PayoutRequested') found = { amount: event.data.amount, status: 'REQUESTED' };
      else if (found) found = { ...found, status: event.type === 'PayoutSent' ? 'SENT' : event.type === 'PayoutPaid' ? 'PAID' : 'FAILED' };
    }
    return found && { merchantId, payoutId, ...found, destinationVersion: 1 };
  };
  const find = (payoutId: string) => AccountStreamPayout.find(runner, store, viewAt, M, payoutId);
  const outcomes = async (payoutId: string) =>
    (await accountEvents()).filter((e) => e.type !== 'PayoutRequested' && (e.data as { payoutId: string }).payoutId === payoutId).map((e) => e.type);

  beforeEach(async () => {
    store = new CountingStore();
    runner = new CommandRunner(store);
    await store.append(ACCOUNT, [{ type: 'PayoutDestinationSet', data: { merchantId: M, version: 1, destination: {}, setAt: AT } }], 'no_stream');
    for (let i = 0; i < 200; i++) await store.append(ACCOUNT, [requested(`po_old${i}`, 1_000)], 'any');
    await store.append(ACCOUNT, [requested('po_1', 60_050)], 'any');
  });

  it('records its outcomes one after the other at the revisions it knows', async () => {
    const payout = (await find('po_1'))!;
    expect(payout.payout).toMatchObject({ amount: 60_050, status: 'REQUESTED' });
    await payout.record(sent('po_1'), SYSTEM);
    await payout.record(paid('po_1'), SYSTEM);
    expect(await outcomes('po_1')).toEqual(['PayoutSent', 'PayoutPaid']);
    expect((await store.readLastEvent(ACCOUNT))!.data).toMatchObject({ payoutId: 'po_1', amount: 60_050, externalReferenceId: 'TR-po_1' });
    expect(store.historyReads).toBe(0);
  });

  it('decides again on the last event and the view when another outcome moved the stream, never on its history', async () => {
    const payout = (await find('po_1'))!;
    const other = (await find('po_old7'))!;
    await other.record(paid('po_old7'), SYSTEM);
    await payout.record(paid('po_1'), SYSTEM);
    expect(await outcomes('po_1')).toEqual(['PayoutPaid']);
    expect(await outcomes('po_old7')).toEqual(['PayoutPaid']);
    expect(store.historyReads).toBe(0);
  });

  it('records one outcome when two workers record theirs at once: the first stands', async () => {
    const [first, second] = [(await find('po_1'))!, (await find('po_1'))!];
    await Promise.all([first.record(paid('po_1'), SYSTEM), second.record({ type: 'RecordPayoutFailed', data: { payoutId: 'po_1', reason: 'LATE', at: AT, callbackUrl: null } }, SYSTEM)]);
    const [outcome, ...more] = await outcomes('po_1');
    expect(more).toEqual([]);
    // Told again later (a reconcile pass), nothing more is written.
    await (await find('po_1'))!.record(paid('po_1'), SYSTEM);
    await (await find('po_1'))!.record({ type: 'RecordPayoutFailed', data: { payoutId: 'po_1', reason: 'LATE', at: AT, callbackUrl: null } }, SYSTEM);
    expect(await outcomes('po_1')).toEqual([outcome]);
    expect(store.historyReads).toBe(0);
  });

  it('knows no payout the view does not show, nor one of a merchant without a payout account stream', async () => {
    expect(await find('po_none')).toBeUndefined();
    expect(await AccountStreamPayout.find(runner, store, viewAt, 'm_other', 'po_1')).toBeUndefined();
  });
});
