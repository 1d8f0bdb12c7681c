import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { newStream } from './known-stream';
import { tally } from './testing/counters';
import { composeCommandRunners } from './composed-command-runner';
import { Metrics } from './metrics';
import type { ProjectedReads } from './projected-reads';

const metadata = { correlationId: 'req-1' };
const reads = () => ({ reach: jest.fn(async () => undefined) });

describe('composeCommandRunners', () => {
  it("runs one process's concurrent commands on a stream one after another, each on what the one before left", async () => {
    const store = new InMemoryEventStore();
    const runner = composeCommandRunners(store, reads() as unknown as ProjectedReads, new Metrics()).answering;
    await runner.run('t-1', tally, 'Count', metadata, newStream(tally));
    const streamReads = jest.spyOn(store, 'readStream');
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => runner.run('t-1', tally, 'Count', metadata)));
    expect(streamReads).not.toHaveBeenCalled();
    expect(outcomes.map((o) => o.state).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
  });

  it('counts the events appended, by type', async () => {
    const metrics = new Metrics();
    const runner = composeCommandRunners(new InMemoryEventStore(), reads() as unknown as ProjectedReads, metrics).answering;
    await runner.run('t-2', tally, 'Count', metadata);
    await runner.run('t-2', tally, 'Count', metadata);
    expect((await metrics.eventsAppended.get()).values).toEqual([expect.objectContaining({ labels: { type: 'Counted' }, value: 2 })]);
  });

  it('answers work nobody waits on without waiting for the read models, in the same lanes', async () => {
    const projected = reads();
    const { answering, background } = composeCommandRunners(new InMemoryEventStore(), projected as unknown as ProjectedReads, new Metrics());
    await answering.run('t-3', tally, 'Count', metadata);
    expect(projected.reach).toHaveBeenCalledTimes(1);
    const outcomes = await Promise.all([background.run('t-3', tally, 'Count', metadata), answering.run('t-3', tally, 'Count', metadata)]);
    expect(projected.reach).toHaveBeenCalledTimes(2);
    expect(outcomes.map((o) => o.state).sort()).toEqual([2, 3]);
  });
});
