import { streams } from '@app/domain';
import { Clocks, CommandRunner } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../../event-store/src/testing/in-memory-event-store';
import { ESCROW_ID, escrowCreated, escrowFunded } from '../../../../domain/src/testing/escrow.fixtures';
import { FixedClock } from '../../../../infrastructure/src/testing/fixed-clock';
import { ReleaseDueCommand } from './release-due.command';
import { ReleaseDueHandler } from './release-due.handler';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The scheduler's automatic release on the in-memory event store: the decider judges the instant, the handler stamps it with the clock's time. */
describe('ReleaseDueHandler', () => {
  let store: InMemoryEventStore;
  let clock: FixedClock;
  let handler: ReleaseDueHandler;

  beforeEach(() => {
    store = new InMemoryEventStore();
    clock = new FixedClock('2030-01-05T12:00:00.000Z');
    handler = new ReleaseDueHandler(new CommandRunner(store), new Clocks(store, clock));
  });

  const recorded = (autoReleaseAt: string) => store.append(streams.escrow(ESCROW_ID), [escrowCreated({ autoReleaseAt }), escrowFunded()], 'no_stream');
  const events = async () => store.readStream(streams.escrow(ESCROW_ID));

  it('releases all that is held once the clock has passed the instant, as the scheduler, and answers how many releases it made', async () => {
    await recorded('2030-01-06T00:00:00.000Z');
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(0);
    clock.advance(DAY_MS);
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(2);
    const scheduler = { actor: { type: 'system', id: 'scheduler' } };
    const releasedAt = '2030-01-06T12:00:00.000Z';
    expect((await events()).slice(2)).toMatchObject([
      { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: 10_000, releasedAt, automatic: true }, metadata: scheduler },
      { type: 'AllocationReleased', data: { merchantId: 'm-2', amount: 12_500, releasedAt, automatic: true }, metadata: scheduler },
    ]);
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(0);
  });

  it('releases nothing while the clock is before the instant (a job run early, or a release its merchant moved)', async () => {
    await recorded('2030-01-05T12:00:00.001Z');
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(0);
    expect(await events()).toHaveLength(2);
  });
});
