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
    expect(advanced).toEqual(['batch 1', 'batch 2']);
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
