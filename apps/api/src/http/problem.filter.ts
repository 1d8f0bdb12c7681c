import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem';

/** Sends any error in the problem shape; also used by Fastify hooks that answer before Nest routes. */
export function sendProblem(exception: unknown, request: FastifyRequest, reply: FastifyReply, logger?: Logger): FastifyReply {
  const path = (request.url ?? '').split('?')[0];
  const { statusCode, body, headers, unexpected } = toProblem(exception, path);
  if (unexpected) {
    logger?.error(`${request.method} ${path} (request ${String(request.id)}) failed: ${exception instanceof Error ? exception.stack : String(exception)}`);
  }
  return reply
    .status(statusCode)
    .headers(headers ?? {})
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(body));
}

/** Every error, from validation to a lost database, leaves in the spec's problem shape and nothing more. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}
