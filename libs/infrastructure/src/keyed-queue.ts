import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runs tasks one after another per key, and tasks of different keys side by side. A key is held only
 * while a task of it waits or runs, so the map is as large as the keys busy right now. A task that
 * runs another of its own key (directly or through the code it calls) runs it at once: queued behind
 * itself, it would wait for ever.
 */
export class KeyedQueue {
  /** Each busy key's last task, settled (never rejected): what the next task of that key waits for. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly held = new AsyncLocalStorage<ReadonlySet<string>>();

  /** Keys with a task waiting or running. */
  get busyKeys(): number {
    return this.tails.size;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const held = this.held.getStore();
    if (held?.has(key)) return task();
    const start = () => this.held.run(new Set(held).add(key), task);
    const previous = this.tails.get(key);
    const result = previous ? previous.then(start) : Promise.resolve().then(start);
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
