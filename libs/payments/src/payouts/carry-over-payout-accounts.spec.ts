import type { PayoutDestinations } from '@app/credentials';
import { type PayoutDestination, santim, singlePayoutDecider, streams } from '@app/domain';
import { formatPosition, type NewEvent } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../event-store/src/testing/in-memory-event-store';
import { FixedClock } from '../../../infrastructure/src/testing/fixed-clock';
import { ProcessPayout } from '../flow/process-payout/process-payout';
import type { PaymentProvider, TransferRequest, TransferStatus } from '../payment-provider.port';
import type { PaymentProviders } from '../payment-providers';
import { payoutSettingsInForce } from '../payout-settings/payout-settings-in-force';
import { carryOverPayoutAccounts } from './carry-over-payout-accounts';
import { payoutDestination } from './payout-requests';

const M = 'm_old';
const ACCOUNT = streams.payouts(M);
const DAY_1 = '2026-11-20T08:00:00.000Z';
const DAY_2 = '2026-11-21T08:00:00.000Z';
const DAY_3 = '2026-11-22T08:00:00.000Z';
const NOW = '2026-11-30T09:00:00.000Z';
const actor = { actor: { type: 'merchant' as const, id: M } };

const bank = (version: number): PayoutDestination => ({
  kind: 'bank',
  institution: '946',
  holderName: 'Old Shop',
  accountMask: `••••000${version}`,
  accountRef: `dst_${version}`,
  accountFingerprint: `fp_${version}`,
});
const daily = { schedule: { kind: 'daily' as const, hour: 9 }, minimumAmount: santim(100_00), callbackUrl: 'https://shop.example/payouts' };

/** As the previous release wrote them: every payout, the settings (no `scheduleSetAt`) and the destination in the payout account stream. */
const destinationSet = (version: number, setAt: string): NewEvent => ({ type: 'PayoutDestinationSet', data: { merchantId: M, version, destination: bank(version), setAt }, metadata: actor });
const settingsChanged = (version: number, minimum: number, changedAt: string): NewEvent => ({
  type: 'PayoutSettingsChanged',
  data: { merchantId: M, version, settings: { ...daily, minimumAmount: santim(minimum) }, changedAt },
  metadata: actor,
});
const requested = (payoutId: string, amount: number, destinationVersion: number, requestedAt: string): NewEvent => ({
  type: 'PayoutRequested',
  data: { merchantId: M, payoutId, amount, destinationVersion, settles: [{ eventId: `e-${payoutId}`, amount }], trigger: 'on-demand', requestedAt },
  metadata: actor,
});
const outcome = (type: 'PayoutSent' | 'PayoutPaid' | 'PayoutFailed', payoutId: string, amount: number, at: string): NewEvent => ({
  type,
  data:
    type === 'PayoutSent'
      ? { merchantId: M, payoutId, providerReference: payoutId, sentAt: at }
      : type === 'PayoutPaid'
        ? { merchantId: M, payoutId, amount, externalReferenceId: `TR-${payoutId}`, paidAt: at }
        : { merchantId: M, payoutId, amount, reason: 'ACCOUNT_CLOSED', failedAt: at },
  metadata: { actor: { type: 'system', id: 'payouts' } },
});

const PREVIOUS_RELEASE_LOG = [
  destinationSet(1, DAY_1),
  settingsChanged(1, 100_00, DAY_1),
  requested('po_old1', 40_000, 1, DAY_1),
  outcome('PayoutSent', 'po_old1', 40_000, DAY_1),
  outcome('PayoutPaid', 'po_old1', 40_000, DAY_1),
  // A change of the minimum alone: the schedule stays set from day 1.
  settingsChanged(2, 200_00, DAY_2),
  destinationSet(2, DAY_2),
  requested('po_old2', 60_050, 2, DAY_3),
];

/** The sandbox as the payout sees it: a transfer it was never sent is unknown, one sent succeeds. */
class Provider {
  readonly sent: TransferRequest[] = [];

  async transferStatus(reference: string): Promise<TransferStatus> {
    return this.sent.some((t) => t.reference === reference) ? { state: 'succeeded', externalReferenceId: `TR-${reference}`, at: NOW } : { state: 'unknown' };
  }

  async transfer(request: TransferRequest): Promise<TransferStatus> {
    this.sent.push(request);
    return { state: 'pending' };
  }
}

/**
 * A log written by the release before payouts, their settings and their destination had streams of
 * their own (everything in the merchant's payout account stream, `payouts-{merchantId}`) is carried
 * over once, appending, and then reads and pays out as it did: history is never rewritten.
 */
describe('the carry-over of a payout account stream written by the previous release', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;
  let provider: Provider;
  let payouts: ProcessPayout;

  const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

  beforeEach(async () => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
    provider = new Provider();
    const providers = { forTenant: async () => provider as unknown as PaymentProvider } as unknown as PaymentProviders;
    const accounts = { accountNumber: async (_merchantId: string, ref: string) => (ref.startsWith('dst_') ? '1000123456789' : undefined) } as unknown as PayoutDestinations;
    payouts = new ProcessPayout(runner, providers, accounts, new FixedClock(NOW));
    await store.append(ACCOUNT, PREVIOUS_RELEASE_LOG, 'no_stream');
  });

  it('appends each payout, the settings and the destination to their own streams once, and marks the account stream, whose history stays as written', async () => {
    const before = await store.readStream(ACCOUNT);
    expect(await carryOverPayoutAccounts(runner, store, NOW)).toEqual([M]);
    expect(await carryOverPayoutAccounts(runner, store, NOW)).toEqual([]);

    const after = await store.readStream(ACCOUNT);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((e) => [e.type, e.data])).toEqual([['PayoutAccountCarriedOver', { merchantId: M, payouts: 2, carriedAt: NOW }]]);
    expect(await typesOf(streams.payout('po_old1'))).toEqual(['PayoutCarriedOver']);
    expect(await typesOf(streams.payout('po_old2'))).toEqual(['PayoutCarriedOver']);
    expect(await typesOf(streams.payoutDestination(M))).toEqual(['PayoutDestinationCarriedOver']);
    expect(await typesOf(streams.payoutSettings(M))).toEqual(['PayoutSettingsCarriedOver']);
    // The next payout's range begins after the last payout of the account stream took its money.
    const [booked] = await store.readStream(streams.payoutBooks(M));
    expect(booked.data).toEqual({ merchantId: M, payoutId: 'po_old2', through: formatPosition(before[before.length - 1].position) });
  });

  it('carries over once when several processes start at once: the ones that lose the race re-read and find it carried', async () => {
    const starts = await Promise.all(Array.from({ length: 5 }, () => carryOverPayoutAccounts(runner, store, NOW)));
    expect(starts.flat()).toEqual([M]);
    expect((await store.readStream(ACCOUNT)).filter((e) => e.type === 'PayoutAccountCarriedOver')).toHaveLength(1);
    expect(await typesOf(streams.payout('po_old2'))).toEqual(['PayoutCarriedOver']);
    expect(await typesOf(streams.payoutBooks(M))).toEqual(['PayoutBooked']);
  });

  it('appends nothing on a log with no payout account stream, whatever the other payout streams hold', async () => {
    const fresh = new InMemoryEventStore();
    await fresh.append(streams.payout('po_new'), [{ type: 'PayoutRequested', data: { merchantId: M, payoutId: 'po_new' }, metadata: actor }], 'no_stream');
    await fresh.append(streams.payoutSettings(M), [settingsChanged(1, 100_00, DAY_1)], 'no_stream');
    const head = await fresh.head();
    expect(await carryOverPayoutAccounts(new CommandRunner(fresh), fresh, NOW)).toEqual([]);
    expect(await fresh.head()).toEqual(head);
  });

  it('shows the same payouts, settings and destination, read from their own streams alone', async () => {
    await carryOverPayoutAccounts(runner, store, NOW);
    const payout = async (payoutId: string) => (await runner.read(streams.payout(payoutId), singlePayoutDecider)).state.payout;
    expect(await payout('po_old1')).toEqual({ merchantId: M, payoutId: 'po_old1', amount: 40_000, status: 'PAID', destinationVersion: 1, destination: bank(1) });
    expect(await payout('po_old2')).toEqual({ merchantId: M, payoutId: 'po_old2', amount: 60_050, status: 'REQUESTED', destinationVersion: 2, destination: bank(2) });
    expect(await payoutSettingsInForce(runner, M)).toEqual({ version: 2, settings: { ...daily, minimumAmount: 200_00 }, scheduleSetAt: Date.parse(DAY_1) });
    expect((await payoutDestination(runner, M)).inForce).toEqual({ version: 2, destination: bank(2), paused: false });
  });

  it('pays the payout it found in flight exactly once, to the destination of its version, and records its outcome in the payout’s own stream', async () => {
    await carryOverPayoutAccounts(runner, store, NOW);
    expect(await payouts.process(M, 'po_old2')).toEqual({ state: 'pending' });
    expect(await payouts.process(M, 'po_old2')).toEqual({ state: 'settled' });
    expect(await payouts.process(M, 'po_old2')).toEqual({ state: 'settled' });
    expect(await payouts.process(M, 'po_old1')).toEqual({ state: 'settled' });
    expect(provider.sent).toEqual([{ reference: 'po_old2', amount: 60_050, destination: { kind: 'bank', institution: '946', holderName: 'Old Shop', accountNumber: '1000123456789' } }]);
    expect(await typesOf(streams.payout('po_old2'))).toEqual(['PayoutCarriedOver', 'PayoutSent', 'PayoutPaid']);
    expect((await store.readStream(ACCOUNT)).at(-1)?.type).toBe('PayoutAccountCarriedOver');
  });

  it('carries the pause of a destination a payout failed to, and nothing a merchant has set in the newer streams since', async () => {
    await store.append(ACCOUNT, [outcome('PayoutFailed', 'po_old2', 60_050, DAY_3)], 'any');
    await store.append(streams.payoutSettings(M), [{ type: 'PayoutSettingsChanged', data: { merchantId: M, version: 3, settings: daily, changedAt: DAY_3, scheduleSetAt: DAY_3 }, metadata: actor }], 'no_stream');
    await carryOverPayoutAccounts(runner, store, NOW);
    expect((await payoutDestination(runner, M)).inForce).toEqual({ version: 2, destination: bank(2), paused: true });
    expect(await typesOf(streams.payoutSettings(M))).toEqual(['PayoutSettingsChanged']);
    expect(await payoutSettingsInForce(runner, M)).toMatchObject({ version: 3 });
    expect((await runner.read(streams.payout('po_old2'), singlePayoutDecider)).state.payout?.status).toBe('FAILED');
    expect(await payouts.process(M, 'po_old2')).toEqual({ state: 'settled' });
    expect(provider.sent).toEqual([]);
  });
});
