import { KeyedQueue } from './keyed-queue';

/** A task that finishes when told to, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    task: async () => {
      log.push(`start ${name}`);
      await opened;
      log.push(`end ${name}`);
      return name;
    },
  };
}

describe('KeyedQueue', () => {
  it('runs the tasks of one key one after another, in the order they came', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => gate(log, name));
    const results = [queue.run('k', a.task), queue.run('k', b.task), queue.run('k', c.task)];
    await new Promise(setImmediate);
    expect(log).toEqual(['start a']);
    c.open();
    b.open();
    a.open();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs tasks of different keys side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => gate(log, name));
    const results = [queue.run('k1', a.task), queue.run('k2', b.task)];
    await new Promise(setImmediate);
    expect(log).toEqual(['start a', 'start b']);
    b.open();
    a.open();
    await Promise.all(results);
  });

  it('starts the next task of a key after one failed, and hands the failure to its own caller only', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('k', async () => {
      throw new Error('refused');
    });
    const next = queue.run('k', async () => 'applied');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('applied');
  });

  it('forgets a key once its last task has settled', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const running = queue.run('k', a.task);
    const failing = queue.run('other', async () => {
      throw new Error('refused');
    });
    expect(queue.busyKeys).toBe(2);
    a.open();
    await running;
    await failing.catch(() => undefined);
    await new Promise(setImmediate);
    expect(queue.busyKeys).toBe(0);
  });
});
