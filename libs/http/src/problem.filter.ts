import { type ArgumentsHost, BadRequestException, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientGone } from './client-gone';
import { jsonErrorLocation } from './json-error-location';
import { renderProblem, toProblem } from './problem';

/** Fastify's own refusal of a body that does not parse, as it reaches us (directly, or as Nest's 400 around it). */
function isInvalidJson(exception: unknown): boolean {
  const { code, message } = (exception ?? {}) as { code?: unknown; message?: unknown };
  return code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (typeof message === 'string' && message.startsWith('Body is not valid JSON'));
}

/** A body that is not JSON: the message says where it broke, from the bytes received. */
function withJsonLocation(exception: unknown, request: FastifyRequest): unknown {
  const raw = (request as FastifyRequest & { rawBody?: Buffer }).rawBody;
  if (!isInvalidJson(exception) || !Buffer.isBuffer(raw)) return exception;
  const location = jsonErrorLocation(raw.toString('utf8'));
  if (!location) return exception;
  return new BadRequestException(
    `The request body is not valid JSON: unexpected ${location.found} at line ${location.line}, column ${location.column} (character ${location.offset})`,
  );
}

/**
 * Sends any error as the spec's envelope, or as RFC 9457 problem details when the request's Accept
 * prefers them (problem.ts, prefersProblemDetails); also used by Fastify hooks that answer before Nest routes.
 */
export function sendProblem(thrown: unknown, request: FastifyRequest, reply: FastifyReply, logger?: Logger): FastifyReply {
  // Work stopped because no one is left to answer: nothing failed, and nothing can be sent.
  if (thrown instanceof ClientGone) return reply;
  const path = (request.url ?? '').split('?')[0];
  const exception = withJsonLocation(thrown, request);
  const { statusCode, body, headers, unexpected } = toProblem(exception, path);
  if (unexpected) {
    logger?.error(`${request.method} ${path} (request ${String(request.id)}) failed: ${exception instanceof Error ? exception.stack : String(exception)}`);
  }
  const { contentType, payload } = renderProblem(statusCode, body, request.headers.accept);
  return reply
    .status(statusCode)
    .headers(headers ?? {})
    // Also here, not only in the onSend hook (libs/http/src/service/http-app.ts): Fastify's refusals before routing (frameworkErrors) skip the hooks.
    .header('x-request-id', String(request.id))
    .header('content-type', contentType)
    .send(JSON.stringify(payload));
}

/** Every error, from validation to a lost database, leaves in the spec's error shape and nothing more. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}
