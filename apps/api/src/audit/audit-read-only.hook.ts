import type { FastifyInstance } from 'fastify';
import { ApiError, sendProblem } from '@app/http';

/** The audit API reads; whatever the key, nothing under it changes anything (405 before any route or guard). */
export function refuseAuditWrites(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if ((path !== '/v1/audit' && !path.startsWith('/v1/audit/')) || request.method === 'GET' || request.method === 'HEAD') return;
    return sendProblem(new ApiError(405, 'AUDIT_READ_ONLY', 'The audit API is read-only: only GET is allowed', { allow: 'GET, HEAD' }), request, reply);
  });
}
