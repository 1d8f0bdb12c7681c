import { streams } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../../event-store/src/testing/in-memory-event-store';
import { ESCROW_ID, escrowCreated, escrowFunded } from '../../../../domain/src/testing/escrow.fixtures';
import { ReleaseDueCommand } from './release-due.command';
import { ReleaseDueHandler } from './release-due.handler';

/** The scheduler's automatic release on the in-memory event store: the decider judges the instant, the handler stamps it now. */
describe('ReleaseDueHandler', () => {
  let store: InMemoryEventStore;
  let handler: ReleaseDueHandler;

  beforeEach(() => {
    store = new InMemoryEventStore();
    handler = new ReleaseDueHandler(new CommandRunner(store));
  });

  const recorded = (autoReleaseAt: string) => store.append(streams.escrow(ESCROW_ID), [escrowCreated({ autoReleaseAt }), escrowFunded()], 'no_stream');
  const events = async () => store.readStream(streams.escrow(ESCROW_ID));

  it('releases all that is held once the instant has passed, as the scheduler, and answers how many releases it made', async () => {
    await recorded('2020-01-02T00:00:00.000Z');
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(2);
    const scheduler = { actor: { type: 'system', id: 'scheduler' } };
    expect((await events()).slice(2)).toMatchObject([
      { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: 10_000, automatic: true }, metadata: scheduler },
      { type: 'AllocationReleased', data: { merchantId: 'm-2', amount: 12_500, automatic: true }, metadata: scheduler },
    ]);
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(0);
  });

  it('releases nothing before the instant (a job run early, or a release its merchant moved)', async () => {
    await recorded('2099-01-01T00:00:00.000Z');
    expect(await handler.execute(new ReleaseDueCommand(ESCROW_ID))).toBe(0);
    expect(await events()).toHaveLength(2);
  });
});
