import { Controller, Get, Inject, type OnApplicationShutdown, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore, START } from '@app/event-store';
import { queueConnectionFor } from '@app/scheduling';
import { PublicApi } from '../openapi/security';
import { OBSERVED_QUEUES } from './observed-queues';
import { HealthReportResponse } from './health-report.response';

const PROBE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS).unref())]);
}

/** Liveness (the process answers) and readiness (its event store, database and queues answer: Redis, or BullMQ's tables in PostgreSQL). */
@ApiTags('operations')
@Controller('health')
@PublicApi()
export class HealthController implements OnApplicationShutdown {
  private redis?: IORedis;

  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(OBSERVED_QUEUES) private readonly queues: Queue[],
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthReportResponse, description: 'Alive' })
  async live(@Res() reply: FastifyReply) {
    return this.respond(reply, () => this.health.check([]));
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the event store, the read models and Redis answer' })
  @ApiOkResponse({ type: HealthReportResponse, description: 'Ready' })
  @ApiServiceUnavailableResponse({ type: HealthReportResponse, description: 'A dependency is down: the report names it' })
  async ready(@Res() reply: FastifyReply) {
    const probe = (key: string, work: () => Promise<unknown>) => async () => {
      try {
        await withTimeout(work());
        return this.indicators.check(key).up();
      } catch (error) {
        return this.indicators.check(key).down({ message: error instanceof Error ? error.message : String(error) });
      }
    };
    return this.respond(reply, () =>
      this.health.check([
        probe('eventStore', () => this.store.readAll(START, 1)),
        probe('readModels', () => this.db.query('SELECT 1')),
        ...this.queueProbes(probe),
      ]),
    );
  }

  /** Redis answers its ping; on PostgreSQL, the queues' own tables answer (they live in their own schema). */
  private queueProbes<P>(probe: (key: string, work: () => Promise<unknown>) => P): P[] {
    switch (queueConnectionFor(this.config)?.kind) {
      case 'redis':
        return [probe('redis', () => this.redisClient().ping())];
      case 'postgres':
        return [probe('queues', () => Promise.all(this.queues.map((queue) => queue.getJobCounts('waiting'))))];
      default:
        return [];
    }
  }

  /** Terminus answers 503 with its own report when a check is down; keep that report, not the problem shape. */
  private async respond(reply: FastifyReply, check: () => Promise<unknown>) {
    try {
      return reply.status(200).send(await check());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      return reply.status(503).send(error.getResponse());
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }

  private redisClient(): IORedis {
    if (!this.redis) {
      this.redis = new IORedis(this.config.redisUrl!, { maxRetriesPerRequest: 1 });
      this.redis.on('error', () => undefined);
    }
    return this.redis;
  }
}
