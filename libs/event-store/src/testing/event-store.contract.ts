import { randomUUID } from 'node:crypto';
import { untilTestEnds, waitFor } from '../../../../test/support/wait';
import {
  type AppendedEvent,
  comparePositions,
  ConditionFailed,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from '../event-store.port';

export interface ContractSubject {
  store: EventStore;
  close(): Promise<void>;
}

const event = (type: string, n = 0) => ({ type, data: { n }, metadata: { correlationId: `c-${n}` } });

async function collectUntil(store: EventStore, from: LogPosition, count: number): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  let reached: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => (reached = resolve));
  const subscription = store.subscribeToAll({
    from,
    batchSize: 17,
    onEvents: async (events) => {
      received.push(...events);
      if (received.length >= count) reached();
    },
  });
  const done = untilTestEnds(() => `${count} events from the subscription (${received.length} so far)`, () => reached());
  await enough;
  done();
  await subscription.stop();
  return received;
}

/**
 * What every EventStore adapter must do. Call inside a spec file with a factory that returns a
 * fresh, empty store for each test.
 */
export function eventStoreContract(open: () => Promise<ContractSubject>): void {
  let subject: ContractSubject;
  let store: EventStore;
  const stream = () => `contract-${randomUUID()}`;

  beforeEach(async () => {
    subject = await open();
    store = subject.store;
  });
  afterEach(async () => subject.close());

  it('appends to a new stream and reads it back in order with revisions, metadata and positions', async () => {
    const id = stream();
    const result = await store.append(id, [event('A', 1), event('B', 2)], 'no_stream');
    expect(result.nextRevision).toBe(1n);
    const read = await store.readStream(id);
    expect(read.map((e) => [e.type, e.revision, e.data])).toEqual([
      ['A', 0n, { n: 1 }],
      ['B', 1n, { n: 2 }],
    ]);
    expect(read[0].metadata).toEqual({ correlationId: 'c-1' });
    expect(read[0].recordedAt).toBeInstanceOf(Date);
    expect(comparePositions(read[0].position, read[1].position)).toBeLessThan(0);
    expect(result.position).toEqual(read[1].position);
  });

  it("returns each appended event with its own id, revision, time and position, as the log reads it, and not what was sent", async () => {
    const id = stream();
    const result = await store.append(id, [event('A', 1), event('B', 2), event('C', 3)], 'no_stream');
    const read = await store.readStream(id);
    const landed = (e: AppendedEvent) => [e.id, e.streamId, e.revision, e.recordedAt, e.position];
    expect(result.events.map(landed)).toEqual(read.map(landed));
    expect(new Set(result.events.map((e) => `${e.position.commit}-${e.position.prepare}`)).size).toBe(3);
    expect(result.events.map((e) => Object.keys(e).filter((key) => ['type', 'data', 'metadata'].includes(key)))).toEqual([[], [], []]);
  });

  it('reads several streams at once, each in order, an unknown one as empty', async () => {
    const [a, b, unknown] = [stream(), stream(), stream()];
    await store.append(a, [event('A1'), event('A2')], 'no_stream');
    await store.append(b, [event('B1')], 'no_stream');
    await store.append(a, [event('A3')], 1n);
    const histories = await store.readStreams([a, b, unknown]);
    expect([...histories.keys()].sort()).toEqual([a, b, unknown].sort());
    expect(histories.get(a)!.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
    expect(histories.get(b)!.map((e) => e.type)).toEqual(['B1']);
    expect(histories.get(unknown)).toEqual([]);
    expect(await store.readStreams([])).toEqual(new Map());
  });

  it('reads only what follows a known revision of the streams named with one, the others whole', async () => {
    const [a, b, c, unknown] = [stream(), stream(), stream(), stream()];
    await store.append(a, [event('A1'), event('A2'), event('A3')], 'no_stream');
    await store.append(b, [event('B1')], 'no_stream');
    await store.append(c, [event('C1'), event('C2')], 'no_stream');
    const histories = await store.readStreams([a, b, c, unknown], new Map([[a, 0n], [b, 0n], [unknown, 3n]]));
    expect(histories.get(a)!.map((e) => [e.type, e.revision])).toEqual([['A2', 1n], ['A3', 2n]]);
    expect(histories.get(b)).toEqual([]);
    expect(histories.get(c)!.map((e) => e.type)).toEqual(['C1', 'C2']);
    expect(histories.get(unknown)).toEqual([]);
  });

  it('reads an unknown stream as empty', async () => {
    expect(await store.readStream(stream())).toEqual([]);
  });

  it('checks the expected revision: no_stream, exact and any', async () => {
    const id = stream();
    await store.append(id, [event('A')], 'no_stream');
    await expect(store.append(id, [event('B')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
    await expect(store.append(id, [event('B')], 5n)).rejects.toMatchObject({ actual: 0n, expected: 5n });
    await expect(store.append(stream(), [event('B')], 0n)).rejects.toMatchObject({ actual: 'no_stream' });
    expect((await store.append(id, [event('B')], 0n)).nextRevision).toBe(1n);
    expect((await store.append(id, [event('C')], 'any')).nextRevision).toBe(2n);
    expect((await store.append(stream(), [event('D')], 'any')).nextRevision).toBe(0n);
    expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });

  it('writes nothing when the expectation fails', async () => {
    const id = stream();
    await store.append(id, [event('A')], 'no_stream');
    await expect(store.append(id, [event('X'), event('Y')], 3n)).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A']);
  });

  it('lets exactly one of 20 concurrent appends at the same expected revision win', async () => {
    const id = stream();
    await store.append(id, [event('Created')], 'no_stream');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => store.append(id, [event('Raced', i)], 0n)),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const loss of lost) expect(loss.reason).toBeInstanceOf(WrongExpectedRevision);
    expect(await store.readStream(id)).toHaveLength(2);
  });

  it('fails only the append whose expectation fails among concurrent appends to other streams', async () => {
    const existing = stream();
    const other = stream();
    await store.append(existing, [event('Created')], 'no_stream');
    await store.append(other, [event('Created')], 'no_stream');
    const fresh = Array.from({ length: 20 }, () => stream());
    const outcomes = await Promise.allSettled([
      ...fresh.map((id, i) => store.append(id, [event('New', i)], 'no_stream')),
      store.append(existing, [event('Stale')], 5n),
      store.append(other, [event('Next')], 0n),
    ]);
    const stale = outcomes[fresh.length];
    expect(stale).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevision) });
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(fresh.length + 1);
    expect((await store.readStream(existing)).map((e) => e.type)).toEqual(['Created']);
    expect((await store.readStream(other)).map((e) => e.type)).toEqual(['Created', 'Next']);
    for (const id of fresh) expect(await store.readStream(id)).toHaveLength(1);
  });

  it('writes an append whose conditions hold, and nothing, naming the streams that moved, for one whose conditions fail', async () => {
    const [kept, absent, target] = [stream(), stream(), stream()];
    await store.append(kept, [event('K1'), event('K2')], 'no_stream');
    const conditions = [{ streamId: kept, revision: 1n }, { streamId: absent, revision: 'no_stream' as const }];
    if (!store.checksConditions) {
      // A store that cannot check them refuses them rather than leaving them unchecked: its writers read first.
      await expect(store.append(target, [event('T1')], 'no_stream', { conditions })).rejects.toThrow();
      expect(await store.readStream(target)).toEqual([]);
      return;
    }
    expect((await store.append(target, [event('T1')], 'no_stream', { conditions })).nextRevision).toBe(0n);
    await store.append(kept, [event('K3')], 1n);
    await store.append(absent, [event('A1')], 'no_stream');
    const failure = store.append(target, [event('T2'), event('T3')], 0n, { conditions });
    await expect(failure).rejects.toBeInstanceOf(ConditionFailed);
    await expect(failure).rejects.toMatchObject({
      failed: [
        { streamId: kept, expected: 1n, actual: 2n },
        { streamId: absent, expected: 'no_stream', actual: 0n },
      ],
    });
    expect((await store.readStream(target)).map((e) => e.type)).toEqual(['T1']);
    expect((await store.append(target, [event('T2')], 0n, { conditions: [{ streamId: kept, revision: 2n }] })).nextRevision).toBe(1n);
  });

  it('fails only the append whose condition fails among concurrent appends, and a multi-stream append whole', async () => {
    const moved = stream();
    await store.append(moved, [event('M1'), event('M2')], 'no_stream');
    if (!store.checksConditions) return;
    const fresh = Array.from({ length: 20 }, () => stream());
    const staleOne = stream();
    const outcomes = await Promise.allSettled([
      ...fresh.map((id, i) => store.append(id, [event('New', i)], 'no_stream', { conditions: [{ streamId: moved, revision: 1n }] })),
      store.append(staleOne, [event('Stale')], 'no_stream', { conditions: [{ streamId: moved, revision: 0n }] }),
    ]);
    expect(outcomes[fresh.length]).toMatchObject({ status: 'rejected', reason: expect.any(ConditionFailed) });
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(fresh.length);
    for (const id of fresh) expect(await store.readStream(id)).toHaveLength(1);
    expect(await store.readStream(staleOne)).toEqual([]);
    const [a, b] = [stream(), stream()];
    const across = store.appendMany([
      { streamId: a, events: [event('A1')], expected: 'no_stream' },
      { streamId: b, events: [event('B1')], expected: 'no_stream', options: { conditions: [{ streamId: moved, revision: 'no_stream' }] } },
    ]);
    await expect(across).rejects.toBeInstanceOf(ConditionFailed);
    expect(await store.readStream(a)).toEqual([]);
    expect(await store.readStream(b)).toEqual([]);
  });

  it('acknowledges each of many concurrent appends only once its events are stored for every reader', async () => {
    const ids = Array.from({ length: 30 }, () => stream());
    const seenOnAcknowledgement = await Promise.all(
      ids.map(async (id, i) => {
        await store.append(id, [event('Stored', i)], 'no_stream');
        return (await store.readStream(id)).map((e) => e.data);
      }),
    );
    expect(seenOnAcknowledgement).toEqual(ids.map((_, i) => [{ n: i }]));
  });

  it('delivers every event of 50 concurrent writers exactly once, in global order, to a live subscriber', async () => {
    const writers = 50;
    const perWriter = 4;
    const collecting = collectUntil(store, START, writers * perWriter);
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const id = `writer-${w}-${randomUUID()}`;
        for (let i = 0; i < perWriter; i++) {
          await store.append(id, [event('Written', i)], i === 0 ? 'no_stream' : BigInt(i - 1));
        }
      }),
    );
    const received = await collecting;
    expect(received).toHaveLength(writers * perWriter);
    expect(new Set(received.map((e) => e.id)).size).toBe(writers * perWriter);
    for (let i = 1; i < received.length; i++) {
      expect(comparePositions(received[i - 1].position, received[i].position)).toBeLessThan(0);
    }
    const byStream = new Map<string, bigint[]>();
    for (const e of received) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.revision]);
    for (const revisions of byStream.values()) expect(revisions).toEqual([0n, 1n, 2n, 3n]);
  });

  it('resumes a subscription from a checkpoint without repeating or skipping events', async () => {
    const id = stream();
    await store.append(id, [event('One', 1), event('Two', 2), event('Three', 3)], 'no_stream');
    const first = await collectUntil(store, START, 3);
    const checkpoint = first[1].position;
    await store.append(id, [event('Four', 4)], 2n);
    const resumed = await collectUntil(store, checkpoint, 2);
    expect(resumed.map((e) => e.type)).toEqual(['Three', 'Four']);
  });

  it('appends to several streams at once, each at its expected revision, in one step of the log', async () => {
    const [a, b, c] = [stream(), stream(), stream()];
    await store.append(a, [event('A1')], 'no_stream');
    await store.append(c, [event('C1')], 'no_stream');
    const results = await store.appendMany([
      { streamId: a, events: [event('A2'), event('A3')], expected: 0n },
      { streamId: b, events: [event('B1')], expected: 'no_stream' },
      { streamId: c, events: [event('C2')], expected: 'any' },
    ]);
    expect(results.map((r) => [r.nextRevision, r.events.map((e) => [e.streamId, e.revision])])).toEqual([
      [2n, [[a, 1n], [a, 2n]]],
      [0n, [[b, 0n]]],
      [1n, [[c, 1n]]],
    ]);
    const histories = await store.readStreams([a, b, c]);
    expect(results.flatMap((r) => r.events.map((e) => e.id))).toEqual([...histories.get(a)!.slice(1), ...histories.get(b)!, ...histories.get(c)!.slice(1)].map((e) => e.id));
    expect(histories.get(a)!.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
    expect(histories.get(b)![0]).toMatchObject({ type: 'B1', metadata: { correlationId: 'c-0' } });
    expect(histories.get(c)!.map((e) => e.type)).toEqual(['C1', 'C2']);
    expect(await store.head()).toEqual(results.map((r) => r.position).sort(comparePositions).at(-1));
  });

  it('writes nothing to any stream when one expected revision fails', async () => {
    const [a, b, c] = [stream(), stream(), stream()];
    await store.append(a, [event('A1')], 'no_stream');
    await store.append(b, [event('B1')], 'no_stream');
    const failure = store.appendMany([
      { streamId: a, events: [event('A2')], expected: 0n },
      { streamId: c, events: [event('C1')], expected: 'no_stream' },
      { streamId: b, events: [event('B2')], expected: 5n },
    ]);
    await expect(failure).rejects.toMatchObject({ streamId: b, expected: 5n, actual: 0n });
    await expect(failure).rejects.toBeInstanceOf(WrongExpectedRevision);
    expect((await store.readStream(a)).map((e) => e.type)).toEqual(['A1']);
    expect(await store.readStream(b)).toHaveLength(1);
    expect(await store.readStream(c)).toEqual([]);
    expect((await store.append(a, [event('A2')], 0n)).nextRevision).toBe(1n);
  });

  it('lets exactly one of concurrent multi-stream appends over a shared stream win', async () => {
    const shared = stream();
    await store.append(shared, [event('Opened')], 'no_stream');
    const own = Array.from({ length: 10 }, () => stream());
    const outcomes = await Promise.allSettled(
      own.map((id, i) => store.appendMany([{ streamId: id, events: [event('Own', i)], expected: 'no_stream' }, { streamId: shared, events: [event('Booked', i)], expected: 0n }])),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const loss of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) expect(loss.reason).toBeInstanceOf(WrongExpectedRevision);
    const written = (await store.readStreams(own)).values();
    expect([...written].filter((h) => h.length > 0)).toHaveLength(1);
    expect(await store.readStream(shared)).toHaveLength(2);
  });

  it("reads a stream's first or last event alone, none for an unknown stream", async () => {
    const id = stream();
    await store.append(id, [event('A', 1), event('B', 2)], 'no_stream');
    await store.append(id, [event('C', 3)], 1n);
    expect(await store.readFirstEvent(id)).toMatchObject({ streamId: id, type: 'A', revision: 0n, data: { n: 1 }, metadata: { correlationId: 'c-1' } });
    expect(await store.readLastEvent(id)).toMatchObject({ streamId: id, type: 'C', revision: 2n, data: { n: 3 }, metadata: { correlationId: 'c-3' } });
    const unknown = stream();
    expect(await store.readFirstEvent(unknown)).toBeUndefined();
    expect(await store.readLastEvent(unknown)).toBeUndefined();
  });

  it('lists the streams whose ids begin with a prefix, ordered, and none for a prefix no stream has', async () => {
    const kind = `contract_${randomUUID().slice(0, 8)}`;
    await store.append(`${kind}-b`, [event('A', 1), event('B', 2)], 'no_stream');
    await store.appendMany([
      { streamId: `${kind}-a`, events: [event('A', 3)], expected: 'no_stream' },
      { streamId: `${kind}s-c`, events: [event('A', 4)], expected: 'no_stream' },
    ]);
    // `_` and `%` are a prefix's own characters, never wildcards.
    await store.append(`${kind.replace('_', 'x')}-d`, [event('A', 5)], 'no_stream');
    expect(await store.streamIdsStartingWith(`${kind}-`)).toEqual([`${kind}-a`, `${kind}-b`]);
    expect(await store.streamIdsStartingWith(`${kind}%`)).toEqual([]);
    expect(await store.streamIdsStartingWith(`nothing_${randomUUID()}-`)).toEqual([]);
  });

  it('names the last appended event as the head of the log', async () => {
    const first = await store.append(stream(), [event('A')], 'no_stream');
    expect(await store.head()).toEqual(first.position);
    const second = await store.append(stream(), [event('B'), event('C')], 'no_stream');
    expect(await store.head()).toEqual(second.position);
  });

  it('pages the global log with readAll', async () => {
    const id = stream();
    await store.append(id, [event('A'), event('B'), event('C')], 'no_stream');
    // The log shows an append once every older transaction has ended (gap-safe order): another suite's may still run.
    const page1 = await waitFor(async () => {
      const page = await store.readAll(START, 2);
      return page.length === 2 && page;
    }, 'the appended events to be readable');
    const page2 = await store.readAll(page1[1].position, 2);
    expect([...page1, ...page2].map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });
}
