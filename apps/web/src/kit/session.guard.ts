import { type CanActivate, type ExecutionContext, Inject, Injectable, mixin, type Type } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import { type ConsoleSession, ConsoleSessions, type SessionKind } from '@app/credentials';
import type { RequestWithActor } from '@app/http';
import { SignInRequired } from './html-error.filter';
import { type Notice, redirect } from './page';
import { clearSessionCookie, readSessionCookie, type SessionCookie } from './session-cookie';

export interface SessionRequest extends RequestWithActor {
  consoleSession?: ConsoleSession & { token: string };
}

export interface SessionRule {
  cookie: SessionCookie;
  kinds: readonly SessionKind[];
  signInPath: string;
}

/** The live session of an allowed kind that the request's cookie names, if any. */
export async function findSession(sessions: ConsoleSessions, request: FastifyRequest, rule: SessionRule): Promise<(ConsoleSession & { token: string }) | undefined> {
  const token = readSessionCookie(request, rule.cookie);
  if (!token) return undefined;
  const session = await sessions.find(token, rule.kinds);
  return session && { ...session, token };
}

/** Ends the request's session and sends the browser to the sign-in page, which then says so. */
export async function endSession(sessions: ConsoleSessions, config: AppConfig, request: SessionRequest, reply: FastifyReply, rule: SessionRule): Promise<FastifyReply> {
  await sessions.revoke(currentSession(request).token);
  clearSessionCookie(reply, config, rule.cookie);
  return redirect(reply, `${rule.signInPath}?signed-out`);
}

/** The notice a sign-in page shows after endSession sent the browser there. */
export function signedOutNotice(request: FastifyRequest): Notice {
  return (request.query as Record<string, string | undefined>)['signed-out'] !== undefined ? { text: 'You have signed out.' } : undefined;
}

/** A guard for one console: a live server-side session of an allowed kind, or off to its sign-in page. */
export function SessionGuard(rule: SessionRule): Type<CanActivate> {
  @Injectable()
  class ConsoleSessionGuard implements CanActivate {
    constructor(@Inject(ConsoleSessions) private readonly sessions: ConsoleSessions) {}

    async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<SessionRequest>();
      const session = await findSession(this.sessions, request, rule);
      if (!session) throw new SignInRequired(rule.signInPath);
      request.consoleSession = session;
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
