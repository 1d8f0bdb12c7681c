import type { RecordedEvent } from '@app/event-store';
import { SourceHistories } from './source-histories';

let commit = 0;
function event(streamId: string, revision: number, type = 'Something', id = `${streamId}@${revision}`): RecordedEvent {
  commit += 1;
  return { id, streamId, revision: BigInt(revision), type, data: { revision }, metadata: {}, recordedAt: new Date(), position: { commit: BigInt(commit), prepare: 0n } };
}
const revisions = (history: RecordedEvent[] | undefined) => history?.map((e) => Number(e.revision));

describe('SourceHistories', () => {
  it("holds a stream followed from its first event, and gives its history up to an event, not past it", () => {
    const histories = new SourceHistories();
    const [created, funded, released] = [event('escrow-1', 0), event('escrow-1', 1), event('escrow-1', 2)];
    histories.follow([created, funded]);
    histories.follow([released]);

    expect(revisions(histories.historyUpTo(funded))).toEqual([0, 1]);
    expect(revisions(histories.historyUpTo(released))).toEqual([0, 1, 2]);
  });

  it('does not hold a stream created before it followed the log: planning reads it', () => {
    const histories = new SourceHistories();
    const funded = event('escrow-2', 1);
    histories.follow([funded]);
    expect(histories.historyUpTo(funded)).toBeUndefined();
  });

  it('drops a stream whose events arrive out of turn rather than plan from a history with a hole', () => {
    const histories = new SourceHistories();
    histories.follow([event('escrow-3', 0)]);
    const later = event('escrow-3', 2);
    histories.follow([later]);
    expect(histories.historyUpTo(later)).toBeUndefined();
    const next = event('escrow-3', 3);
    histories.follow([next]);
    expect(histories.historyUpTo(next)).toBeUndefined();
  });

  it('never plans from a held event that is not the one asked about (a stale state plans no payload)', () => {
    const histories = new SourceHistories();
    histories.follow([event('escrow-4', 0), event('escrow-4', 1, 'EscrowFunded', 'first')]);
    expect(histories.historyUpTo(event('escrow-4', 1, 'EscrowFunded', 'another'))).toBeUndefined();
  });

  it('a batch followed again after a failure rebuilds the same history', () => {
    const histories = new SourceHistories();
    const batch = [event('escrow-5', 0), event('escrow-5', 1)];
    histories.follow(batch);
    histories.follow(batch);
    expect(revisions(histories.historyUpTo(batch[1]))).toEqual([0, 1]);
  });

  it('keeps the streams appended to most recently, and no delivery streams', () => {
    const histories = new SourceHistories(2);
    const a = event('escrow-a', 0);
    const b = event('escrow-b', 0);
    histories.follow([a, b, event('callback-dlv_1', 0)]);
    const a1 = event('escrow-a', 1);
    histories.follow([a1, event('escrow-c', 0)]);

    expect(histories.historyUpTo(b)).toBeUndefined();
    expect(revisions(histories.historyUpTo(a1))).toEqual([0, 1]);
    expect(histories.historyUpTo(event('callback-dlv_1', 0))).toBeUndefined();
  });
});
