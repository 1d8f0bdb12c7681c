/**
 * Runs tasks one after another per key, and tasks of different keys side by side. A key is held only
 * while a task of it waits or runs, so the map is as large as the keys busy right now.
 *
 * A task must not wait for another task of its own key: queued behind itself, it would wait for ever.
 * None does (one-command-per-stream.ts): a command's task is the runner's core, which calls only the
 * decider, pure and synchronous, and a decision across streams reads what it decides on but runs no
 * command. Running such a task at once instead would need the keys held carried through every call
 * a task makes (an AsyncLocalStorage), which turns on Node's tracking of every promise the process
 * makes, each request's included.
 */
export class KeyedQueue {
  /** Each busy key's last task, settled (never rejected): what the next task of that key waits for. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys with a task waiting or running. */
  get busyKeys(): number {
    return this.tails.size;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : Promise.resolve().then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
