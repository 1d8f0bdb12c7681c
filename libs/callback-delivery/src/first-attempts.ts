/**
 * The first attempts the dispatcher makes itself, in this process, instead of queueing them
 * (docs/concepts/callbacks.md): at most `limit` at once, and its checkpoint moved past a batch only
 * once that batch's attempts, and every earlier batch's, have been made and recorded. The log
 * follower meanwhile goes on to the next batch: a slow receiver holds up the checkpoint, not the
 * other deliveries.
 */
export class FirstAttempts {
  private readonly running = new Set<Promise<void>>();
  private checkpointed: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly onCheckpointError: (error: unknown) => void,
  ) {}

  /** Starts `attempt` (which must not reject) once fewer than `limit` run; resolves once it has started, with its end. */
  async start(attempt: () => Promise<void>): Promise<{ finished: Promise<void> }> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const run: Promise<void> = attempt().finally(() => this.running.delete(run));
    this.running.add(run);
    return { finished: run };
  }

  /**
   * `advance` runs once `attempts` and those passed before have settled, in the order passed. A failed
   * advance is reported and left to the next one, which moves the checkpoint past it.
   */
  afterAll(attempts: readonly Promise<void>[], advance: () => Promise<void>): void {
    const settled = Promise.allSettled(attempts);
    this.checkpointed = this.checkpointed.then(() => settled).then(advance).catch(this.onCheckpointError);
  }

  /** The attempts in flight finish and are recorded, and the checkpoint follows them (SIGTERM). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
    await this.checkpointed;
  }
}
