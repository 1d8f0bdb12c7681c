import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { readCheckpoint } from '@app/read-models';
import type { Queue } from 'bullmq';
import { Metrics } from '@app/infrastructure';
import { OBSERVED_QUEUES } from './observed-queues';

/** A lag past this many events reads as this many: the gauge says "far behind" without reading the whole log. */
const LAG_COUNT_CAP = 10_000;

/** Prometheus scrape endpoint. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(Metrics) private readonly metrics: Metrics,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(OBSERVED_QUEUES) private readonly queues: Queue[],
  ) {}

  @Get()
  async scrape(@Res() reply: FastifyReply) {
    await Promise.all([this.measureLag(), this.measureQueues()]);
    return reply.header('content-type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }

  /** Read through the event store port, so it holds on PostgreSQL and on KurrentDB alike; counted up to a cap. */
  private async measureLag(): Promise<void> {
    const behind = await this.store.readAll(await readCheckpoint(this.db), LAG_COUNT_CAP);
    this.metrics.projectorLagEvents.set(behind.length);
    this.metrics.projectorLagSeconds.set(behind.length > 0 ? Math.max(0, (Date.now() - behind[0].recordedAt.getTime()) / 1000) : 0);
  }

  private async measureQueues(): Promise<void> {
    for (const queue of this.queues) {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
      for (const [state, count] of Object.entries(counts)) this.metrics.queueDepth.set({ queue: queue.name, state }, count);
    }
  }
}
