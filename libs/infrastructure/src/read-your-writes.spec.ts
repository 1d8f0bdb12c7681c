import type { ExpectedRevision, NewEvent } from '@app/event-store';
import { InMemoryEventStore } from '../../event-store/src/testing/in-memory-event-store';
import { CommandRunner } from './command-runner';
import { tally } from './testing/counters';
import type { ProjectedReads } from './projected-reads';
import { readYourWrites } from './read-your-writes';

const metadata = { correlationId: 'req-1' };

/** A store whose appends say they wrote their stream's view inline, as PostgreSQL's does for payables. */
class InlineViewStore extends InMemoryEventStore {
  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) {
    return { ...(await super.append(streamId, events, expected)), viewWritten: true };
  }
}

describe('readYourWrites', () => {
  const reads = () => ({ reach: jest.fn(async () => undefined) });

  it("holds the answer until the read models include the command's events", async () => {
    const projected = reads();
    const runner = readYourWrites(new CommandRunner(new InMemoryEventStore()), projected as unknown as ProjectedReads);
    const outcome = await runner.run('t-1', tally, 'Count', metadata);
    expect(projected.reach).toHaveBeenCalledWith(outcome.position, 'req-1');
  });

  it('does not wait when the command appended nothing', async () => {
    const projected = reads();
    const nothing = { ...tally, decide: () => [] };
    const runner = readYourWrites(new CommandRunner(new InMemoryEventStore()), projected as unknown as ProjectedReads);
    await runner.run('t-2', nothing, 'Count', metadata);
    expect(projected.reach).not.toHaveBeenCalled();
  });

  it('does not wait when the append wrote its stream\'s own view', async () => {
    const projected = reads();
    const runner = readYourWrites(new CommandRunner(new InlineViewStore()), projected as unknown as ProjectedReads);
    await runner.run('t-3', tally, 'Count', metadata);
    expect(projected.reach).not.toHaveBeenCalled();
  });
});
