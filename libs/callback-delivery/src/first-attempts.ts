/** A batch the checkpoint is yet to move past: settled once its first attempts are made and recorded. */
interface Batch {
  settled: boolean;
  /** Resolves once `settled` is set and the batches settled so far are handed to the checkpoint. */
  told: Promise<void>;
  advance: () => Promise<void>;
}

/**
 * The first attempts the dispatcher makes itself, in this process, instead of queueing them
 * (docs/concepts/callbacks.md): at most `limit` at once, and its checkpoint moved past a batch only
 * once that batch's attempts, and every earlier batch's, have been made and recorded. The log
 * follower meanwhile goes on to the next batch: a slow receiver holds up the checkpoint, not the
 * other deliveries. One move of the checkpoint is written at a time; the batches that settle
 * meanwhile are passed by one move, the last one's, when it ends: a write per batch would be a
 * commit per batch.
 */
export class FirstAttempts {
  private readonly running = new Set<Promise<void>>();
  /** In log order, from the first batch the checkpoint has not moved past. */
  private readonly batches: Batch[] = [];
  private advancing?: Promise<void>;

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
   * `advance` moves the checkpoint past a batch once `attempts` and those passed before have settled, in
   * the order passed; it is left out when a later batch has settled by the time it could run, whose
   * advance passes both. A failed advance is reported and left to the next one, which moves the
   * checkpoint past it.
   */
  afterAll(attempts: readonly Promise<void>[], advance: () => Promise<void>): void {
    const batch: Batch = { settled: false, told: Promise.resolve(), advance };
    batch.told = Promise.allSettled(attempts).then(() => {
      batch.settled = true;
      this.advanceSettled();
    });
    this.batches.push(batch);
  }

  /** The attempts in flight finish and are recorded, and the checkpoint follows them (SIGTERM). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
    await Promise.all(this.batches.map((batch) => batch.told));
    while (this.advancing) await this.advancing;
  }

  /** Unless a move is being written, writes the last of the settled batches at the head of the log order. */
  private advanceSettled(): void {
    if (this.advancing) return;
    let last: Batch | undefined;
    while (this.batches[0]?.settled) last = this.batches.shift();
    if (!last) return;
    const { advance } = last;
    this.advancing = (async () => {
      try {
        await advance();
      } catch (error) {
        this.onCheckpointError(error);
      }
    })().finally(() => {
      this.advancing = undefined;
      this.advanceSettled();
    });
  }
}
