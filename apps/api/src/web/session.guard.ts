import { type CanActivate, type ExecutionContext, Inject, Injectable, mixin, type Type } from '@nestjs/common';
import { type ConsoleSession, ConsoleSessions, type SessionKind } from '@app/merchants';
import type { RequestWithActor } from '../http/request-context';
import { SignInRequired } from './html-error.filter';
import { readSessionCookie, type SessionCookie } from './session-cookie';

export interface SessionRequest extends RequestWithActor {
  consoleSession?: ConsoleSession & { token: string };
}

export interface SessionRule {
  cookie: SessionCookie;
  kinds: readonly SessionKind[];
  signInPath: string;
}

/** A guard for one console: a live server-side session of an allowed kind, or off to its sign-in page. */
export function SessionGuard(rule: SessionRule): Type<CanActivate> {
  @Injectable()
  class ConsoleSessionGuard implements CanActivate {
    constructor(@Inject(ConsoleSessions) private readonly sessions: ConsoleSessions) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<SessionRequest>();
      const token = readSessionCookie(request, rule.cookie);
      const session = token ? await this.sessions.find(token, rule.kinds) : undefined;
      if (!token || !session) throw new SignInRequired(rule.signInPath);
      request.consoleSession = { ...session, token };
      request.actor = { type: session.kind, id: session.subjectId };
      return true;
    }
  }
  return mixin(ConsoleSessionGuard);
}

export function currentSession(request: SessionRequest): ConsoleSession & { token: string } {
  if (!request.consoleSession) throw new Error('currentSession used on a route without a SessionGuard');
  return request.consoleSession;
}
