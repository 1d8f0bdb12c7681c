import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loggedUrl } from '../logged-url';

/**
 * One line per request when it completes: method, path, status, time and its id (also the
 * correlation id of the events it wrote); the headers both ways only at debug level, where they
 * are worth their kilobyte a line. A one-time credential in a path (an account link's token) is not written (libs/http/src/logged-url.ts). Written from Fastify's own hook: per-request middleware and async
 * context cost every request measurable time (docs/benchmarks.md). Server failures are logged at
 * error level.
 */
export function logRequests(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    if (logger.isLevelEnabled(level)) {
      const headers = logger.isLevelEnabled('debug');
      logger[level](
        {
          req: { id: request.id, method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip, ...(headers ? { headers: request.headers } : {}) },
          res: { statusCode: reply.statusCode, ...(headers ? { headers: reply.getHeaders() } : {}) },
          responseTime: Math.round(reply.elapsedTime),
          correlationId: request.id,
        },
        'request completed',
      );
    }
    done();
  });
}
