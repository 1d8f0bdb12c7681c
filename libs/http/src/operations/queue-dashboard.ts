import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import type { Queue } from 'bullmq';
import { constantTimeEquals } from '../auth.guards';
import { ApiError } from '../problem';
import { sendProblem } from '../problem.filter';
import { OBSERVED_QUEUES } from './observed-queues';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/** Bull Board over the BullMQ queues, for operators holding the admin key (in Redis or PostgreSQL; none in the embedded mode). */
export async function mountQueueDashboard(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const queues = app.get<Queue[]>(OBSERVED_QUEUES).map((queue) => new BullMQAdapter(queue));
  if (queues.length === 0) return;
  const board = new FastifyAdapter();
  board.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues, serverAdapter: board });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['x-admin-key'];
      if (config.adminApiKey && typeof key === 'string' && constantTimeEquals(key, config.adminApiKey)) return;
      return sendProblem(new ApiError(401, 'AUTH_001', 'The x-admin-key header is required'), request, reply);
    });
    await scope.register(board.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
}
