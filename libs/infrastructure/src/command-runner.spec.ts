import { loadConfig } from '@app/config';
import { migrate } from '@app/database';
import { type Decider, DomainError } from '@app/domain';
import { EVENT_STORE_MIGRATIONS, type InlineProjection, PostgresEventStore } from '@app/event-store';
import { ProjectionProgress } from '@app/read-models';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import { Metrics } from './metrics';
import { CommandRunner } from './command-runner';
import { ProjectedReads } from './projected-reads';

type Stepped = { type: 'Stepped'; data: { to: number } };
type Step = { type: 'Step'; to: number } | { type: 'StepOn' };

/** A counter that moves one step at a time: `Step` names the step it expects to take, `StepOn` takes the next. */
const counter: Decider<Step, Stepped, number> = {
  initialState: () => 0,
  evolve: (_, event) => event.data.to,
  decide: (command, state) => {
    const to = command.type === 'StepOn' ? state + 1 : command.to;
    if (to !== state + 1) throw new DomainError('OUT_OF_STEP', `at ${state}, cannot step to ${to}`, 'conflict');
    return [{ type: 'Stepped', data: { to } }];
  },
};

const metadata = { actor: { type: 'system' as const, id: 'test' } };

describe('CommandRunner', () => {
  let db: TestSchema;
  let store: PostgresEventStore;
  let runner: CommandRunner;

  beforeAll(async () => {
    db = await createTestSchema('runner');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    store = new PostgresEventStore(db.client);
    runner = new CommandRunner(store, new ProjectedReads(store, new ProjectionProgress(db.client), loadConfig({})), new Metrics());
  });

  afterAll(async () => {
    await db?.drop();
  });

  const steps = async (streamId: string) => (await store.readStream(streamId)).map((e) => (e.data as { to: number }).to);

  describe('on what its own last append to the stream left', () => {
    const other = () => new CommandRunner(store, new ProjectedReads(store, new ProjectionProgress(db.client), loadConfig({})), new Metrics());

    it('decides the next command without reading the stream', async () => {
      await runner.run('recent-a', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      const reads = jest.spyOn(store, 'readStream');
      const second = await runner.run('recent-a', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const third = await runner.run('recent-a', counter, { type: 'Step', to: 3 }, metadata, { awaitReadModels: false });
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      expect([second.state, third.state]).toEqual([2, 3]);
      expect(await steps('recent-a')).toEqual([1, 2, 3]);
      expect((await store.readStream('recent-a')).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    });

    it('decides again on the history when another writer appended since, landing after it', async () => {
      await runner.run('recent-b', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      await other().run('recent-b', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const reads = jest.spyOn(store, 'readStream');
      const outcome = await runner.run('recent-b', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      expect(reads).toHaveBeenCalledTimes(1);
      reads.mockRestore();
      expect(outcome.state).toBe(3);
      expect(await steps('recent-b')).toEqual([1, 2, 3]);
    });

    it('takes neither a refusal nor "nothing to do" from a remembered state without reading', async () => {
      const idle: Decider<Step, Stepped, number> = { ...counter, decide: (command, state) => (state >= 2 ? [] : counter.decide(command, state)) };
      await runner.run('recent-c', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      await other().run('recent-c', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      // Remembered at 1, the stream is at 2: stepping to 3 is refused at 1 and accepted on the history.
      expect((await runner.run('recent-c', counter, { type: 'Step', to: 3 }, metadata, { awaitReadModels: false })).state).toBe(3);
      await runner.run('recent-d', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      await other().run('recent-d', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      // Remembered at 1 (something to do), the stream is at 2, where there is nothing to do: the answer is the stream's state.
      expect((await runner.run('recent-d', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false })).state).toBe(2);
      await runner.run('recent-e', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      await runner.run('recent-e', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      await other().run('recent-e', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      // Remembered at 2 (nothing to do there), the stream is at 3: the answer comes from a read.
      expect((await runner.run('recent-e', idle, { type: 'StepOn' }, metadata, { awaitReadModels: false })).state).toBe(3);
    });

    it('reads the history for a keyed request, where an earlier attempt of it would show', async () => {
      await runner.run('recent-f', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      const reads = jest.spyOn(store, 'readStream');
      await runner.run('recent-f', counter, { type: 'StepOn' }, { ...metadata, idempotency: 'digest-1' }, { awaitReadModels: false });
      expect(reads).toHaveBeenCalledTimes(1);
      reads.mockRestore();
    });
  });

  describe('with the history the caller read', () => {
    it('decides on it without reading the stream again', async () => {
      await runner.run('counter-a', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const { state, history } = await runner.read('counter-a', counter);
      const reads = jest.spyOn(store, 'readStream');

      const outcome = await runner.run('counter-a', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, history });

      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      expect(state).toBe(1);
      expect(outcome.state).toBe(2);
      expect(await steps('counter-a')).toEqual([1, 2]);
    });

    it('decides again on a fresh read when someone appended since, so the append lands after theirs', async () => {
      const { history } = await runner.read('counter-b', counter);
      await runner.run('counter-b', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });

      const outcome = await runner.run('counter-b', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, history });

      expect(outcome.state).toBe(2);
      expect(outcome.history.map((e) => e.revision)).toEqual([0n]);
      expect(await steps('counter-b')).toEqual([1, 2]);
    });

    it('does not take a refusal from the old history for an answer: the fresh state accepts the command', async () => {
      const { history } = await runner.read('counter-c', counter);
      await runner.run('counter-c', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });

      const outcome = await runner.run('counter-c', counter, { type: 'Step', to: 2 }, metadata, { awaitReadModels: false, history });

      expect(outcome.state).toBe(2);
      expect(await steps('counter-c')).toEqual([1, 2]);
    });

    it('still refuses what the current state refuses', async () => {
      const { history } = await runner.read('counter-d', counter);
      await runner.run('counter-d', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });

      await expect(runner.run('counter-d', counter, { type: 'Step', to: 1 }, metadata, { awaitReadModels: false, history })).rejects.toThrow(
        'at 1, cannot step to 1',
      );
      expect(await steps('counter-d')).toEqual([1]);
    });
  });

  describe('with a state and head the caller holds (known)', () => {
    it('decides and appends without reading, and hands back the head the next command may take', async () => {
      const first = await runner.run('counter-k1', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const reads = jest.spyOn(store, 'readStream');

      const outcome = await runner.run('counter-k1', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, known: { state: 1, head: first.head! } });
      const third = await runner.run('counter-k1', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, known: { state: 2, head: outcome.head! } });

      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      expect(third.state).toBe(3);
      const recorded = await store.readStream('counter-k1');
      expect(recorded.map((e) => (e.data as { to: number }).to)).toEqual([1, 2, 3]);
      expect(third.head).toEqual({ revision: 2n, hash: recorded[2].hash });
    });

    it('a stream changed since the head is refused and the command decided again on its history', async () => {
      const first = await runner.run('counter-k2', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      await runner.run('counter-k2', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });

      const outcome = await runner.run('counter-k2', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, known: { state: 1, head: first.head! } });

      expect(outcome.state).toBe(3);
      expect(await steps('counter-k2')).toEqual([1, 2, 3]);
    });

    it('a refusal on a state the stream has left is decided again; on the current one it stands', async () => {
      const first = await runner.run('counter-k3', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      await runner.run('counter-k3', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });

      const outcome = await runner.run('counter-k3', counter, { type: 'Step', to: 3 }, metadata, { awaitReadModels: false, known: { state: 1, head: first.head! } });
      expect(outcome.state).toBe(3);
      await expect(
        runner.run('counter-k3', counter, { type: 'Step', to: 9 }, metadata, { awaitReadModels: false, known: { state: 3, head: outcome.head! } }),
      ).rejects.toThrow('at 3, cannot step to 9');
    });
  });

  describe('refusals', () => {
    it('answers with a refusal decided on the history it read, on the first attempt', async () => {
      await runner.run('counter-g', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const appends = jest.spyOn(store, 'append');
      await expect(runner.run('counter-g', counter, { type: 'Step', to: 5 }, metadata, { awaitReadModels: false })).rejects.toThrow('at 1, cannot step to 5');
      expect(appends).not.toHaveBeenCalled();
      appends.mockRestore();
    });

    it('answers with a refusal of a new stream at once when the stream is indeed new', async () => {
      const reads = jest.spyOn(store, 'readStream');
      await expect(runner.run('counter-h', counter, { type: 'Step', to: 3 }, metadata, { awaitReadModels: false, expectNewStream: true })).rejects.toThrow(
        'at 0, cannot step to 3',
      );
      expect(reads).toHaveBeenCalledTimes(1);
      reads.mockRestore();
    });
  });

  describe('expecting a new stream', () => {
    it('appends without reading when the stream is new', async () => {
      const reads = jest.spyOn(store, 'readStream');
      const outcome = await runner.run('counter-e', counter, { type: 'Step', to: 1 }, metadata, { awaitReadModels: false, expectNewStream: true });
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
      expect(outcome.state).toBe(1);
    });

    it('decides on the real history when the stream exists after all', async () => {
      await runner.run('counter-f', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false });
      const outcome = await runner.run('counter-f', counter, { type: 'StepOn' }, metadata, { awaitReadModels: false, expectNewStream: true });
      expect(outcome.state).toBe(2);
      expect(await steps('counter-f')).toEqual([1, 2]);
    });
  });

  describe('read-your-writes', () => {
    /** A view of counters written inline (as the payables view is on PostgreSQL); other streams have no row. */
    const counters: InlineProjection = {
      row: (streamId, state) => (streamId.startsWith('counter-') ? { counter_id: streamId, step: state } : undefined),
      upsert: (source) => `INSERT INTO counter_view SELECT r.counter_id, r.step, r.revision
        FROM ${source} CROSS JOIN LATERAL jsonb_populate_record(NULL::counter_view, written.row) AS r
        ON CONFLICT (counter_id) DO UPDATE SET step = EXCLUDED.step, revision = EXCLUDED.revision`,
    };
    let progress: ProjectionProgress;
    let inlineRunner: CommandRunner;

    beforeAll(async () => {
      await db.client.exec(`CREATE TABLE counter_view (counter_id text PRIMARY KEY, step int NOT NULL, revision bigint NOT NULL)`);
      progress = new ProjectionProgress(db.client);
      const inlineStore = new PostgresEventStore(db.client, { inline: counters });
      inlineRunner = new CommandRunner(inlineStore, new ProjectedReads(inlineStore, progress, loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: '50' })), new Metrics());
    });

    it('answers without waiting for the projector when the append wrote the view of its own stream', async () => {
      const waits = jest.spyOn(progress, 'waitFor');
      const outcome = await inlineRunner.run('counter-inline', counter, { type: 'StepOn' }, metadata, { expectNewStream: true });
      await inlineRunner.run('counter-inline', counter, { type: 'StepOn' }, metadata);
      expect(waits).not.toHaveBeenCalled();
      waits.mockRestore();
      expect(outcome.state).toBe(1);
      expect(await db.client.query(`SELECT step, revision::int AS revision FROM counter_view WHERE counter_id = 'counter-inline'`)).toEqual([{ step: 2, revision: 1 }]);
    });

    it('waits for the projector when no view was written inline', async () => {
      const waits = jest.spyOn(progress, 'waitFor');
      await inlineRunner.run('tally-1', counter, { type: 'StepOn' }, metadata, { expectNewStream: true });
      expect(waits).toHaveBeenCalledTimes(1);
      waits.mockRestore();
    });
  });
});
