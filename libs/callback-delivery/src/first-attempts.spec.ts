import fc from 'fast-check';
import { FirstAttempts } from './first-attempts';

/** An attempt that ends when the test says so. */
function pending(): { attempt: () => Promise<void>; finish: () => void; started: () => boolean } {
  let finish: () => void = () => undefined;
  let started = false;
  return {
    attempt: () => {
      started = true;
      return new Promise<void>((resolve) => (finish = resolve));
    },
    finish: () => finish(),
    started: () => started,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('FirstAttempts', () => {
  it("moves the checkpoint past a batch only once its attempts and every earlier batch's are made", async () => {
    const attempts = new FirstAttempts(8, () => undefined);
    const advanced: string[] = [];
    const slow = pending();
    const quick = pending();
    attempts.afterAll([(await attempts.start(slow.attempt)).finished], async () => void advanced.push('batch 1'));
    attempts.afterAll([(await attempts.start(quick.attempt)).finished], async () => void advanced.push('batch 2'));

    quick.finish();
    await turn();
    // The second batch's receiver answered, the first's has not: a crash now must dispatch both again.
    expect(advanced).toEqual([]);
    slow.finish();
    await attempts.drain();
    // Both settled by the time the first could move: one move passes both.
    expect(advanced).toEqual(['batch 2']);
  });

  it('writes one move at a time: the batches that settle meanwhile are passed by one move when it ends', async () => {
    const attempts = new FirstAttempts(8, () => undefined);
    const advanced: string[] = [];
    const writing = pending();
    attempts.afterAll([], async () => {
      advanced.push('batch 1');
      await writing.attempt();
    });
    for (const n of [2, 3, 4]) attempts.afterAll([], async () => void advanced.push(`batch ${n}`));
    await turn();
    expect(advanced).toEqual(['batch 1']);
    writing.finish();
    await attempts.drain();
    expect(advanced).toEqual(['batch 1', 'batch 4']);
  });

  it('a move written meanwhile stops at a batch whose attempt is still unrecorded, whatever settled after it', async () => {
    const attempts = new FirstAttempts(8, () => undefined);
    const advanced: string[] = [];
    const writing = pending();
    const unrecorded = pending();
    attempts.afterAll([], async () => {
      advanced.push('batch 1');
      await writing.attempt();
    });
    attempts.afterAll([(await attempts.start(unrecorded.attempt)).finished], async () => void advanced.push('batch 2'));
    attempts.afterAll([], async () => void advanced.push('batch 3'));
    await turn();
    writing.finish();
    await turn();
    expect(advanced).toEqual(['batch 1']);
    unrecorded.finish();
    await attempts.drain();
    expect(advanced).toEqual(['batch 1', 'batch 3']);
  });

  it('never has the checkpoint past a batch with an unrecorded attempt, and it reaches the last batch, in any order of ends', async () => {
    // Each step ends an attempt or a checkpoint write; a crash at any step leaves the checkpoint where the last write left it.
    const scenario = fc.record({
      batches: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 }),
      order: fc.array(fc.nat(), { maxLength: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ batches, order }) => {
        const attempts = new FirstAttempts(64, () => undefined);
        let checkpoint = -1;
        const unrecorded = batches.map((count) => count);
        const open: (() => void)[] = [];
        const recordedUpTo = () => {
          const first = unrecorded.findIndex((left) => left > 0);
          return first === -1 ? batches.length - 1 : first - 1;
        };
        for (const [n, count] of batches.entries()) {
          const finished: Promise<void>[] = [];
          for (let i = 0; i < count; i++) {
            const attempt = pending();
            finished.push((await attempts.start(attempt.attempt)).finished);
            open.push(() => {
              unrecorded[n] -= 1;
              attempt.finish();
            });
          }
          attempts.afterAll(finished, async () => {
            const write = pending();
            open.push(() => {
              checkpoint = Math.max(checkpoint, n);
              write.finish();
            });
            await write.attempt();
          });
        }
        for (const pick of order) {
          await turn();
          if (open.length === 0) break;
          open.splice(pick % open.length, 1)[0]();
          await turn();
          expect(checkpoint).toBeLessThanOrEqual(recordedUpTo());
        }
        let drained = false;
        const draining = attempts.drain().then(() => (drained = true));
        while (!drained) {
          await turn();
          open.shift()?.();
        }
        await draining;
        expect(checkpoint).toBe(batches.length - 1);
      }),
      { numRuns: 200 },
    );
  });

  it('makes at most its limit of attempts at once; the next starts when one ends', async () => {
    const attempts = new FirstAttempts(2, () => undefined);
    const [a, b, c] = [pending(), pending(), pending()];
    await attempts.start(a.attempt);
    await attempts.start(b.attempt);
    const third = attempts.start(c.attempt);
    await turn();
    expect(c.started()).toBe(false);
    b.finish();
    await third;
    expect(c.started()).toBe(true);
    a.finish();
    c.finish();
    await attempts.drain();
  });

  it('a checkpoint that failed to move is reported, and the next batch moves it', async () => {
    const failures: unknown[] = [];
    const attempts = new FirstAttempts(2, (error) => failures.push(error));
    const advanced: string[] = [];
    attempts.afterAll([], async () => {
      throw new Error('connection lost');
    });
    attempts.afterAll([], async () => void advanced.push('batch 2'));
    await attempts.drain();
    expect(failures).toEqual([new Error('connection lost')]);
    expect(advanced).toEqual(['batch 2']);
  });

  it('on shutdown waits for the attempts in flight and the checkpoint after them', async () => {
    const attempts = new FirstAttempts(2, () => undefined);
    const inFlight = pending();
    let advanced = false;
    attempts.afterAll([(await attempts.start(inFlight.attempt)).finished], async () => void (advanced = true));
    const drained = attempts.drain().then(() => 'drained');
    await turn();
    expect(await Promise.race([drained, Promise.resolve('waiting')])).toBe('waiting');
    inFlight.finish();
    expect(await drained).toBe('drained');
    expect(advanced).toBe(true);
  });
});
