import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { MAIN_CHECKPOINT } from '@app/read-models';
import { CALLBACK_QUEUE } from '../callbacks/callback-queue';
import { BullmqScheduler } from '../scheduling/bullmq-scheduler';
import { SCHEDULER, type Scheduler, type Timed } from '../scheduling/scheduler.port';
import { Metrics } from './metrics.service';

/** Prometheus scrape endpoint. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(Metrics) private readonly metrics: Metrics,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(SCHEDULER) private readonly scheduler: Scheduler<Timed>,
    @Inject(CALLBACK_QUEUE) private readonly callbacks: Scheduler<Timed>,
  ) {}

  @Get()
  async scrape(@Res() reply: FastifyReply) {
    await Promise.all([this.measureLag(), this.measureQueues()]);
    return reply.header('content-type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }

  private async measureLag(): Promise<void> {
    const [row] = await this.db.query<{ lag: number; oldest: Date | null }>(
      `SELECT count(*)::int AS lag, min(e.recorded_at) AS oldest
       FROM events e, projection_checkpoints c
       WHERE c.name = $1 AND (e.transaction_id::text::numeric, e.global_position) > (c.commit_position, c.prepare_position)`,
      [MAIN_CHECKPOINT],
    );
    this.metrics.projectorLagEvents.set(row?.lag ?? 0);
    this.metrics.projectorLagSeconds.set(row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0);
  }

  private async measureQueues(): Promise<void> {
    for (const scheduler of [this.scheduler, this.callbacks]) {
      if (!(scheduler instanceof BullmqScheduler)) continue;
      const counts = await scheduler.queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
      for (const [state, count] of Object.entries(counts)) this.metrics.queueDepth.set({ queue: scheduler.queue.name, state }, count);
    }
  }
}
