import { streams, TestClockLiveMode, TestClockNotFound } from '@app/domain';
import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { Clocks, onClock } from './clocks';
import { FixedClock } from './testing/fixed-clock';

const REAL = '2026-11-29T07:00:00.000Z';
const FROZEN = '2030-01-01T09:00:00.000Z';
const TEST = { merchantId: 'm-1', mode: 'test' as const };

/** Which clock an object reads: its test clock's time when its creation named one, the real time otherwise. */
describe('the Clocks resolver', () => {
  let store: InMemoryEventStore;
  let clocks: Clocks;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    clocks = new Clocks(store, new FixedClock(REAL));
    await store.append(streams.testClock('clock_1'), [{ type: 'TestClockCreated', data: { testClockId: 'clock_1', merchantId: 'm-1', name: null, frozenTime: FROZEN, createdAt: REAL } }], 'no_stream');
  });

  it('gives an object created on a test clock that clock’s time, and any other object the real time', async () => {
    await store.append(streams.order('ord_on'), [{ type: 'OrderCreated', data: { orderId: 'ord_on', testClockId: 'clock_1' } }], 'no_stream');
    await store.append(streams.order('ord_off'), [{ type: 'OrderCreated', data: { orderId: 'ord_off' } }], 'no_stream');
    const on = await clocks.ofPayable('ord_on');
    expect([on.testClockId, on.clock.now().toISOString()]).toEqual(['clock_1', FROZEN]);
    const off = await clocks.ofPayable('ord_off');
    expect([off.testClockId, off.clock.now().toISOString()]).toEqual([undefined, REAL]);
    // An advance moves the attached object with it.
    await store.append(streams.testClock('clock_1'), [{ type: 'TestClockAdvanceStarted', data: { testClockId: 'clock_1', from: FROZEN, frozenTime: '2030-01-11T09:00:00.000Z', startedAt: REAL } }], 0n);
    expect((await clocks.ofPayable('ord_on')).clock.now().toISOString()).toBe('2030-01-11T09:00:00.000Z');
  });

  /** Every read the resolver makes of the store, as [method, stream]. */
  const readsOf = (subject: InMemoryEventStore) => {
    const reads: [string, string][] = [];
    for (const method of ['readStream', 'readFirstEvent', 'readLastEvent'] as const) {
      const read = subject[method].bind(subject);
      jest.spyOn(subject, method).mockImplementation(async (streamId: string) => {
        reads.push([method, streamId]);
        return read(streamId) as never;
      });
    }
    jest.spyOn(subject, 'readStreams').mockImplementation(async (streamIds) => {
      throw new Error(`unexpected readStreams of ${streamIds.join(', ')}`);
    });
    return reads;
  };

  it("reads a plain merchant's party once, and then never again: a merchant is on no clock for good", async () => {
    await store.append(streams.merchant('m-1'), [{ type: 'MerchantRegistered', data: { merchantId: 'm-1' } }], 'no_stream');
    const reads = readsOf(store);
    for (let request = 0; request < 3; request++) expect(await clocks.ofParty('m-1')).toEqual({ clock: expect.anything() });
    expect((await clocks.ofParty('m-1')).clock.now().toISOString()).toBe(REAL);
    expect(reads).toEqual([
      ['readFirstEvent', streams.account('m-1')],
      ['readFirstEvent', streams.merchant('m-1')],
    ]);
  });

  it("reads an account's creation event alone, once, and its clock's time each time", async () => {
    await store.append(
      streams.account('acct_1'),
      [
        { type: 'AccountCreated', data: { accountId: 'acct_1', merchantId: 'm-1', testClockId: 'clock_1' } },
        { type: 'AccountUpdated', data: { accountId: 'acct_1', merchantId: 'm-1' } },
      ],
      'no_stream',
    );
    const reads = readsOf(store);
    for (let request = 0; request < 2; request++) {
      const party = await clocks.ofParty('acct_1');
      expect([party.testClockId, party.clock.now().toISOString()]).toEqual(['clock_1', FROZEN]);
    }
    expect(reads).toEqual([
      ['readFirstEvent', streams.account('acct_1')],
      ['readStream', streams.testClock('clock_1')],
      ['readStream', streams.testClock('clock_1')],
    ]);
  });

  it('reads nothing to find the clock of an object this process created, on a test clock or on none', async () => {
    await store.append(streams.escrow('esc_on'), [{ type: 'EscrowCreated', data: { escrowId: 'esc_on', testClockId: 'clock_1' } }], 'no_stream');
    await store.append(streams.order('ord_off'), [{ type: 'OrderCreated', data: { orderId: 'ord_off' } }], 'no_stream');
    clocks.created(streams.escrow('esc_on'), await clocks.named('clock_1', TEST));
    clocks.created(streams.order('ord_off'), clocks.real());
    const reads = readsOf(store);
    const on = await clocks.ofPayable('esc_on');
    expect([on.testClockId, on.clock.now().toISOString()]).toEqual(['clock_1', FROZEN]);
    expect((await clocks.ofPayable('ord_off')).testClockId).toBeUndefined();
    // Only the test clock's time is read: it moves, the attachment never does.
    expect(reads).toEqual([['readStream', streams.testClock('clock_1')]]);
  });

  it('asks again about a party that is neither a merchant nor an account yet, and finds it on its clock once it is created', async () => {
    expect((await clocks.ofParty('acct_2')).testClockId).toBeUndefined();
    await store.append(streams.account('acct_2'), [{ type: 'AccountCreated', data: { accountId: 'acct_2', merchantId: 'm-1', testClockId: 'clock_1' } }], 'no_stream');
    expect((await clocks.ofParty('acct_2')).testClockId).toBe('clock_1');
  });

  it('lets a create name only its own tenant’s clock, and in test mode only', async () => {
    expect((await clocks.named('clock_1', TEST)).clock.now().toISOString()).toBe(FROZEN);
    await expect(clocks.named('clock_1', { merchantId: 'm-2', mode: 'test' })).rejects.toThrow(TestClockNotFound);
    await expect(clocks.named('clock_9', TEST)).rejects.toThrow(TestClockNotFound);
    await expect(clocks.named('clock_1', { merchantId: 'm-1', mode: 'live' })).rejects.toThrow(TestClockLiveMode);
  });

  it('names the test clock and its time in the metadata of what is decided on it, and nothing on the real time', async () => {
    const metadata = { actor: { type: 'system' as const, id: 'scheduler' } };
    expect(onClock(metadata, await clocks.named('clock_1', TEST))).toEqual({ ...metadata, testClockId: 'clock_1', businessAt: FROZEN });
    expect(onClock(metadata, clocks.real())).toBe(metadata);
  });
});
