import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { EventMetadata } from '@app/event-store';
import { currentSession, type SessionRequest } from '../web/session.guard';

/** The signed-in merchant's id (routes behind DashboardSessionGuard). */
export const SignedInMerchant = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  currentSession(context.switchToHttp().getRequest<SessionRequest>()).subjectId,
);

/** Event metadata of a dashboard action: the request id correlates, the merchant is the actor. */
export const DashboardMetadata = createParamDecorator((_: unknown, context: ExecutionContext): EventMetadata => {
  const request = context.switchToHttp().getRequest<SessionRequest>();
  return { correlationId: String(request.id), causationId: String(request.id), actor: { type: 'merchant', id: currentSession(request).subjectId } };
});
