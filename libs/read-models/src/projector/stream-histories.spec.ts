import { streamKind } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { StreamHistories } from './stream-histories';

let commit = 0;
function event(streamId: string, revision: number, id = `${streamId}@${revision}`): RecordedEvent {
  commit += 1;
  return { id, streamId, revision: BigInt(revision), type: 'Something', data: { revision }, metadata: {}, recordedAt: new Date(), position: { commit: BigInt(commit), prepare: 0n } };
}
const revisions = (history: readonly RecordedEvent[]) => history.map((e) => Number(e.revision));

/** A store holding `log`, counting the streams it is asked to read. */
function storeOf(log: RecordedEvent[]) {
  const reads: string[] = [];
  return {
    reads,
    readStreams: async (streamIds: readonly string[]) => {
      reads.push(...streamIds);
      return new Map(streamIds.map((id) => [id, log.filter((e) => e.streamId === id)]));
    },
  };
}
const everyStream = () => true;

describe('StreamHistories', () => {
  it('follows a stream from its first event across batches without reading it, and gives its history up to an event', async () => {
    const [created, funded, released] = [event('escrow-1', 0), event('escrow-1', 1), event('escrow-1', 2)];
    const store = storeOf([created, funded, released]);
    const histories = new StreamHistories(store);
    const first = await histories.load([created, funded], everyStream);
    const second = await histories.load([released], everyStream);

    expect(revisions(first.of('escrow-1', 1n))).toEqual([0, 1]);
    expect(revisions(second.of('escrow-1', 2n))).toEqual([0, 1, 2]);
    expect(store.reads).toEqual([]);
  });

  it('reads a stream created before it followed the log, once', async () => {
    const log = [event('escrow-2', 0), event('escrow-2', 1), event('escrow-2', 2)];
    const store = storeOf(log);
    const histories = new StreamHistories(store);
    expect(revisions((await histories.load([log[1]], everyStream)).of('escrow-2', 1n))).toEqual([0, 1]);
    expect(revisions((await histories.load([log[2]], everyStream)).of('escrow-2', 2n))).toEqual([0, 1, 2]);
    expect(store.reads).toEqual(['escrow-2']);
  });

  it('reads again rather than fold a history with a hole (events out of turn), and a batch applied again after a failure', async () => {
    const log = [event('escrow-3', 0), event('escrow-3', 1), event('escrow-3', 2)];
    const store = storeOf(log);
    const histories = new StreamHistories(store);
    await histories.load([log[0]], everyStream);
    expect(revisions((await histories.load([log[2]], everyStream)).of('escrow-3'))).toEqual([0, 1, 2]);
    expect(revisions((await histories.load([log[1], log[2]], everyStream)).of('escrow-3'))).toEqual([0, 1, 2]);
    expect(store.reads).toEqual(['escrow-3', 'escrow-3']);
  });

  it('keeps the streams appended to most recently, and none it was not asked for', async () => {
    const log = [event('escrow-a', 0), event('escrow-b', 0), event('callback-dlv_1', 0), event('escrow-a', 1), event('escrow-c', 0), event('escrow-b', 1)];
    const store = storeOf(log);
    const histories = new StreamHistories(store, 2);
    const first = await histories.load(log.slice(0, 3), (id) => streamKind(id) !== 'callback');
    expect(first.of('callback-dlv_1')).toEqual([]);
    await histories.load([log[3], log[4]], everyStream);
    expect(store.reads).toEqual([]);
    // escrow-b was the oldest of three: dropped, so its next event reads it.
    expect(revisions((await histories.load([log[5]], everyStream)).of('escrow-b'))).toEqual([0, 1]);
    expect(store.reads).toEqual(['escrow-b']);
  });

  it('folds a stream once per batch, however many ask, and gives each the state after every event', async () => {
    const log = [event('escrow-4', 0), event('escrow-4', 1), event('escrow-4', 2)];
    const histories = new StreamHistories(storeOf(log));
    let evolved = 0;
    const revisionsSeen = {
      initialState: (): number[] => [],
      evolve: (state: number[], e: RecordedEvent) => {
        evolved += 1;
        return [...state, Number(e.revision)];
      },
    };
    const batch = await histories.load(log, everyStream);
    expect(batch.statesAlong('escrow-4', revisionsSeen)).toEqual([[0], [0, 1], [0, 1, 2]]);
    expect(batch.stateOf('escrow-4', revisionsSeen)).toEqual([0, 1, 2]);
    expect(batch.stateOf('escrow-none', revisionsSeen)).toEqual([]);
    expect(evolved).toBe(3);
    // The next batch folds its own histories.
    expect((await histories.load([event('escrow-4', 3)], everyStream)).stateOf('escrow-4', revisionsSeen)).toEqual([0, 1, 2, 3]);
    expect(evolved).toBe(7);
  });

  it('gives a stream an event consults as the log stands at the batch’s last event, read with the batch, never kept nor counted among its streams', async () => {
    const created = event('account-a', 0);
    const [requested, paid] = [event('payout-1', 0), event('payout-1', 1)];
    const renamed = event('account-a', 1);
    const store = storeOf([created, requested, paid, renamed]);
    const histories = new StreamHistories(store);
    const consults = (e: RecordedEvent) => (e.streamId === 'payout-1' ? ['account-a'] : []);

    const batch = await histories.load([requested, paid], everyStream, consults);
    // The account's later change is past the batch: a rebuild, reading the account long after, sees the same.
    expect(revisions(batch.of('account-a'))).toEqual([0]);
    expect([...batch.streams()]).toEqual(['payout-1']);
    expect(store.reads).toEqual(['account-a']);
    // Its next event is read with the history it follows, since nothing kept the consulted one.
    expect(revisions((await histories.load([renamed], everyStream)).of('account-a'))).toEqual([0, 1]);
    expect(store.reads).toEqual(['account-a', 'account-a']);
  });
});
