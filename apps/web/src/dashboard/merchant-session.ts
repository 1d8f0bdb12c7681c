import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Mode } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { currentSession, type SessionRequest } from '../kit/session.guard';
import type { DashboardRequest } from './dashboard-shell';

/**
 * The id of the tenant the signed-in session acts in (routes behind DashboardSessionGuard): the
 * owner's test or live tenant as the mode switch chose, or the seller's own account.
 */
export const SignedInMerchant = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  currentSession(context.switchToHttp().getRequest<SessionRequest>()).tenantId,
);

/** The mode of the tenant the session acts in, which pages name where keys and secrets differ by mode. */
export const SignedInMode = createParamDecorator((_: unknown, context: ExecutionContext): Mode => {
  const mode = context.switchToHttp().getRequest<DashboardRequest>().dashboardMode;
  if (!mode) throw new Error('SignedInMode used on a route without DashboardSessionGuard');
  return mode.mode;
});

/** Event metadata of a dashboard action: the request id correlates, the tenant acted in is the actor. */
export const DashboardMetadata = createParamDecorator((_: unknown, context: ExecutionContext): EventMetadata => {
  const request = context.switchToHttp().getRequest<SessionRequest>();
  return { correlationId: String(request.id), causationId: String(request.id), actor: { type: 'merchant', id: currentSession(request).tenantId } };
});
