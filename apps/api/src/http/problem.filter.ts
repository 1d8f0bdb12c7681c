import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './problem';

export function sendProblem(exception: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger): void {
  const path = (request.url ?? '').split('?')[0];
  const { statusCode, body, headers, unexpected } = toProblem(exception, path);
  if (unexpected) {
    logger.error(`${request.method} ${path} failed: ${exception instanceof Error ? exception.stack : String(exception)}`);
  }
  void reply
    .status(statusCode)
    .headers(headers ?? {})
    .header('content-type', 'application/problem+json; charset=utf-8')
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
