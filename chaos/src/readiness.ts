import type { ReadinessSample } from './records';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks every API whether it is ready, every `intervalMs`, from the start of a PostgreSQL outage until
 * each has answered 200 after the outage (or `deadline` passed): what a load balancer would see.
 */
export class ReadinessPoller {
  readonly samples: ReadinessSample[] = [];
  private outageEndedAt?: number;
  private deadline = Number.POSITIVE_INFINITY;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly apis: string[],
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    this.loops = this.apis.map((api) => this.poll(api));
  }

  /** From now on each API's poll ends at its first 200 sent after `endedAt`, or at `deadline`. */
  outageEnded(endedAt: number, deadline: number): void {
    this.outageEndedAt = endedAt;
    this.deadline = deadline;
  }

  /** Resolves once every API's poll has ended. */
  async done(): Promise<ReadinessSample[]> {
    await Promise.all(this.loops);
    return this.samples;
  }

  private async poll(api: string): Promise<void> {
    for (;;) {
      const sentAt = Date.now();
      if (sentAt > this.deadline) return;
      const status = await fetch(`${api}/health/ready`, { signal: AbortSignal.timeout(3000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => undefined,
      );
      this.samples.push({ api, sentAt, answeredAt: Date.now(), status });
      if (status === 200 && this.outageEndedAt !== undefined && sentAt >= this.outageEndedAt) return;
      await sleep(Math.max(0, sentAt + this.intervalMs - Date.now()));
    }
  }
}
