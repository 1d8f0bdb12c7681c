import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedMerchant } from '@app/credentials';
import { ApiProblems } from './openapi/api-problems';
import { ApiError } from './problem';

export interface RequestWithActor extends FastifyRequest {
  merchant?: AuthenticatedMerchant;
  /** The platform's account named by `x-account-id`, resolved by MerchantAuthGuard: whom the request acts for. */
  acting?: AuthenticatedMerchant;
  actor?: EventMetadata['actor'];
  /** Who calls, resolved once by the route's guard (libs/domain/src/authority/principal.ts): what the authority rule is asked about. */
  principal?: Principal;
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

/** The header by which a platform acts for one of its accounts, as Stripe's `Stripe-Account`. */
export const ACCOUNT_HEADER = 'x-account-id';

function authenticated(context: ExecutionContext): RequestWithActor & { merchant: AuthenticatedMerchant } {
  const request = context.switchToHttp().getRequest<RequestWithActor>();
  if (!request.merchant) throw new Error('CurrentMerchant or ActingMerchant used on a route without MerchantAuthGuard');
  return request as RequestWithActor & { merchant: AuthenticatedMerchant };
}

/**
 * The merchant the key belongs to. A route that acts only for the key's own merchant refuses
 * `x-account-id` rather than ignore it: the platform would otherwise act on itself unawares.
 */
export const CurrentMerchant = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedMerchant => {
  const request = authenticated(context);
  if (request.acting) throw new ApiError(400, 'ACCOUNT_HEADER_NOT_ACCEPTED', `This route acts for your own merchant only; send it without ${ACCOUNT_HEADER}`);
  return request.merchant;
});

/**
 * Whom the request acts for: the account `x-account-id` names (its id is its ledger merchant id,
 * `merchant:{accountId}:payable`), or without the header the key's own merchant. The guard has
 * answered 404 already for an account that is not the platform's.
 */
export const ActingMerchant = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedMerchant => {
    const request = authenticated(context);
    return request.acting ?? request.merchant;
  },
  [
    (target, key) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
      ApiHeader({ name: ACCOUNT_HEADER, required: false, description: 'Act for one of your accounts (acct_…) instead of yourself' })(target, key!, descriptor);
      ApiProblems({ 404: ['ABC_001'] })(target, key!, descriptor);
    },
  ],
);

/** Who calls, as the route's guard resolved it. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const request = context.switchToHttp().getRequest<RequestWithActor>();
  if (!request.principal) throw new Error('Caller used on a route whose guard resolves no principal');
  return request.principal;
});
