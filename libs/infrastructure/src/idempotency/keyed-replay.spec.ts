import { type Decider, DomainError } from '@app/domain';
import { CommandRunner } from '../command-runner';
import { newStream } from '../known-stream';
import { InMemoryEventStore } from '../../../event-store/src/testing/in-memory-event-store';
import { replayingKeyedRequests } from './keyed-replay';

type Opened = { type: 'Opened'; data: { id: string } };
type Closed = { type: 'Closed'; data: { id: string } };
type Event = Opened | Closed;
type Command = { type: 'Open'; id: string } | { type: 'Close' };
type State = { status: 'none' | 'open' | 'closed'; id?: string };

/** A door: opened once (opening it again the same way changes nothing), closed once. */
const door: Decider<Command, Event, State> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => (event.type === 'Opened' ? { status: 'open', id: event.data.id } : { ...state, status: 'closed' }),
  decide: (command, state) => {
    if (command.type === 'Open') {
      if (state.status === 'none') return [{ type: 'Opened', data: { id: command.id } }];
      if (state.id === command.id) return [];
      throw new DomainError('DOOR_TAKEN', 'another door has this id', 'conflict');
    }
    if (state.status !== 'open') throw new DomainError('NOT_OPEN', 'only an open door closes', 'conflict');
    return [{ type: 'Closed', data: { id: state.id! } }];
  },
};
const keyed = (digest: string) => ({ correlationId: 'req', idempotency: digest });

describe('replayingKeyedRequests', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;

  beforeEach(() => {
    store = new InMemoryEventStore();
    runner = replayingKeyedRequests(new CommandRunner(store), store);
  });
  afterEach(() => jest.restoreAllMocks());

  const types = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

  it('answers a keyed request already applied as it was answered, deciding nothing again', async () => {
    await runner.run('door-1', door, { type: 'Open', id: 'd1' }, keyed('open-1'), newStream(door));
    const first = await runner.run('door-1', door, { type: 'Close' }, keyed('close-1'));
    // Closing again would be refused; the same keyed request is answered as the first time.
    const again = await runner.run('door-1', door, { type: 'Close' }, keyed('close-1'));
    expect(again).toMatchObject({ replayed: true, state: first.state, events: [{ type: 'Closed' }], position: first.position });
    expect(await types('door-1')).toEqual(['Opened', 'Closed']);
  });

  it('answers with the state right after the request, whatever came after it', async () => {
    await runner.run('door-2', door, { type: 'Open', id: 'd2' }, keyed('open-2'), newStream(door));
    await runner.run('door-2', door, { type: 'Close' }, keyed('close-2'));
    const again = await runner.run('door-2', door, { type: 'Open', id: 'd2' }, keyed('open-2'), newStream(door));
    expect(again).toMatchObject({ replayed: true, state: { status: 'open' }, events: [{ type: 'Opened' }] });
  });

  it('a keyed create expected new whose stream exists by another request decides as usual', async () => {
    await runner.run('door-3', door, { type: 'Open', id: 'd3' }, keyed('open-3'), newStream(door));
    const other = await runner.run('door-3', door, { type: 'Open', id: 'd3' }, keyed('another'), newStream(door));
    expect(other).toMatchObject({ events: [], state: { status: 'open' } });
    expect(other.replayed).toBeUndefined();
    await expect(runner.run('door-3', door, { type: 'Open', id: 'x' }, keyed('third'), newStream(door))).rejects.toThrow('another door has this id');
  });

  it('marks the events of a keyed request with its digest, reading the stream once', async () => {
    await runner.run('door-4', door, { type: 'Open', id: 'd4' }, {}, newStream(door));
    const reads = jest.spyOn(store, 'readStream');
    await runner.run('door-4', door, { type: 'Close' }, keyed('close-4'));
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await store.readStream('door-4')).map((e) => e.metadata.idempotency)).toEqual([undefined, 'close-4']);
  });

  it('leaves a request without a key to the runner', async () => {
    const reads = jest.spyOn(store, 'readStream');
    await runner.run('door-5', door, { type: 'Open', id: 'd5' }, {}, newStream(door));
    expect(reads).not.toHaveBeenCalled();
  });
});
