import { BadRequestException, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import { CSRF_FIELD } from './csrf-field';
import { refuseUndeclared } from './validation.pipe';

/** A route with one of these parameters reads its body itself: its DTO (the validation pipe), or the raw request (a provider's notification). */
const READS_BODY = new Set([RouteParamtypes.BODY, RouteParamtypes.REQUEST, RouteParamtypes.RAW_BODY].map(String));

/** What a browser form without fields of its own still sends: its CSRF token. */
const FORM_FIELDS = [CSRF_FIELD];

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

function readsBody(context: ExecutionContext): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => READS_BODY.has(key.split(':')[0]));
}

const reading = new WeakMap<object, boolean>();

/**
 * Closed bodies where no body is declared (`POST /v1/trdp/payouts`, a secret rotation, a redelivery):
 * a field there is 400 UNKNOWN_FIELD, never silently ignored, since the request would otherwise act on
 * its caller while the field named someone else (`{"merchantId": "acct_…"}`) or a part (`{"amount": 10}`).
 * No body, an empty one or `{}` stays accepted. With the validation pipe (declared bodies), every route
 * refuses what it does not read; the consoles' forms read theirs through one declared shape (apps/web/src/kit/form.ts).
 * Checked by IdempotencyInterceptor once the route's guards have passed, as the one interceptor every route has
 * (each interceptor costs every request a pipeline of its own).
 */
export function refuseUndeclaredBody(context: ExecutionContext): void {
  const handler = context.getHandler();
  let reads = reading.get(handler);
  if (reads === undefined) {
    reads = readsBody(context);
    reading.set(handler, reads);
  }
  if (!reads) refuseBody(context.switchToHttp().getRequest<FastifyRequest>());
}

function refuseBody(request: FastifyRequest): void {
  const body: unknown = request.body;
  if (body === undefined || body === null || body === '') return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestException('This operation takes no request body (an empty one or {} is accepted)');
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  refuseUndeclared(body, FORM_TYPES.includes(mediaType) ? FORM_FIELDS : []);
}
