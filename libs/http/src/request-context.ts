import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { ActingPrincipal, Principal } from '@app/domain';
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
  if (!request.merchant) throw new Error('CurrentMerchant, ActingCaller or KeyedIdSalt used on a route without MerchantAuthGuard');
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

/** Whether the key opens a live tenant (docs/concepts/modes.md): every object the request reaches is in the key's mode. */
export const KeyLivemode = createParamDecorator((_: unknown, context: ExecutionContext): boolean => authenticated(context).merchant.mode === 'live');

/**
 * Who calls, on a route that acts for one of a platform's accounts when `x-account-id` names it (a
 * `platformForAccount` principal), or else for the key's own merchant. The guard has answered 404
 * already for an account that is not the platform's. The header it declares is how the OpenAPI
 * document knows which routes take it (openapi/document.ts `takesAccountHeader`).
 */
export const ActingCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): ActingPrincipal => {
    const { principal } = authenticated(context);
    if (principal?.kind !== 'merchant' && principal?.kind !== 'platformForAccount') throw new Error('ActingCaller used on a route whose guard resolves no merchant principal');
    return principal;
  },
  [
    (target, key) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
      ApiHeader({ name: ACCOUNT_HEADER, required: false, description: 'Act for one of your accounts (acct_…) instead of yourself' })(target, key!, descriptor);
      ApiProblems({ 404: ['ABC_001'] })(target, key!, descriptor);
    },
  ],
);

/**
 * The salt of ids an Idempotency-Key derives on a route ActingCaller serves: the acting account's own
 * (auth.guards.ts derives it from its platform's), so the same key from a platform and from one of
 * its accounts never names one resource. It says nothing of whose money the request touches.
 */
export const KeyedIdSalt = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const request = authenticated(context);
  return (request.acting ?? request.merchant).idSalt;
});

/** Who calls, as the route's guard resolved it. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const request = context.switchToHttp().getRequest<RequestWithActor>();
  if (!request.principal) throw new Error('Caller used on a route whose guard resolves no principal');
  return request.principal;
});
