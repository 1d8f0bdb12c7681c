import type { LogPosition, RecordedEvent } from './event-store.port';
import { SharedLogReads } from './shared-log-reads';

const at = (n: number): LogPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
const event = (n: number): RecordedEvent => ({ id: `e${n}`, streamId: `s-${n}`, revision: 0n, type: 'Happened', data: {}, metadata: {}, recordedAt: new Date(0), position: at(n) });

/** The log's reads, each answered when the test says. */
function heldReads() {
  const reads: { after: LogPosition; answer: (events: RecordedEvent[]) => void; fail: (error: Error) => void }[] = [];
  const read = (after: LogPosition) => () =>
    new Promise<RecordedEvent[]>((answer, fail) => {
      reads.push({ after, answer, fail });
    });
  return { reads, read };
}

describe('SharedLogReads', () => {
  it('gives subscriptions asking for the same part of the log at once one read, each its own array of the same events', async () => {
    const { reads, read } = heldReads();
    const shared = new SharedLogReads(() => 7);
    const first = shared.readAll(at(1), 500, '', read(at(1)));
    const second = shared.readAll(at(1), 500, '', read(at(1)));
    expect(reads).toHaveLength(1);
    reads[0].answer([event(2), event(3)]);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual([event(2), event(3)]);
    expect(a).not.toBe(b);
    expect(a[0]).toBe(b[0]);
  });

  it('does not share a read begun before an append it was told of since, nor one from another position, of another size or of another kind', async () => {
    const { reads, read } = heldReads();
    let generation = 1;
    const shared = new SharedLogReads(() => generation);
    void shared.readAll(at(1), 500, '', read(at(1)));
    generation = 2;
    void shared.readAll(at(1), 500, '', read(at(1)));
    void shared.readAll(at(2), 500, '', read(at(2)));
    void shared.readAll(at(2), 10, '', read(at(2)));
    void shared.readAll(at(2), 10, 'CallbackAttempted', read(at(2)));
    expect(reads.map((r) => r.after)).toEqual([at(1), at(1), at(2), at(2), at(2)]);
  });

  it('keeps no answer once a read has settled: the next ask reads again, after a failure too', async () => {
    const { reads, read } = heldReads();
    const shared = new SharedLogReads(() => 1);
    const first = shared.readAll(at(1), 500, '', read(at(1)));
    const joined = shared.readAll(at(1), 500, '', read(at(1)));
    reads[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await expect(joined).rejects.toThrow('connection lost');
    const again = shared.readAll(at(1), 500, '', read(at(1)));
    expect(reads).toHaveLength(2);
    reads[1].answer([]);
    await expect(again).resolves.toEqual([]);
    void shared.readAll(at(1), 500, '', read(at(1)));
    expect(reads).toHaveLength(3);
  });
});
