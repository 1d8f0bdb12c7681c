import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { EventMetadata } from '@app/event-store';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedMerchant } from '@app/credentials';

export interface RequestWithActor extends FastifyRequest {
  merchant?: AuthenticatedMerchant;
  actor?: EventMetadata['actor'];
  /** Digest of the Idempotency-Key and request this request claimed (IdempotencyInterceptor). */
  idempotency?: string;
}

/** The request's event metadata (requestMetadata), as a handler parameter. */
export const RequestMetadata = createParamDecorator((_: unknown, context: ExecutionContext): EventMetadata => {
  const request = context.switchToHttp().getRequest<RequestWithActor>();
  return requestMetadata(request);
});

/** Event metadata for what this request writes: the request id becomes the correlation id. */
export function requestMetadata(request: RequestWithActor, actor = request.actor): EventMetadata {
  return {
    correlationId: String(request.id),
    causationId: String(request.id),
    actor,
    ...(request.idempotency ? { idempotency: request.idempotency } : {}),
  };
}

export const CurrentMerchant = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedMerchant => {
  const merchant = context.switchToHttp().getRequest<RequestWithActor>().merchant;
  if (!merchant) throw new Error('CurrentMerchant used on a route without MerchantAuthGuard');
  return merchant;
});
