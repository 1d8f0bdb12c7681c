import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@app/config';
import type { ConsoleSessions, SessionKind } from '@app/credentials';

export interface SessionCookie {
  name: string;
  /** The console's path: the browser sends the cookie nowhere else. */
  path: string;
}

export const DASHBOARD_COOKIE: SessionCookie = { name: 'dashboard_session', path: '/dashboard' };
export const AUDIT_COOKIE: SessionCookie = { name: 'audit_session', path: '/audit' };
/** The hosted onboarding page's session, which an account link opens (onboarding/onboarding.controller.ts). */
export const ONBOARDING_COOKIE: SessionCookie = { name: 'onboarding_session', path: '/onboarding' };
export const SESSION_COOKIES = [DASHBOARD_COOKIE, AUDIT_COOKIE, ONBOARDING_COOKIE];

export function secureCookies(config: AppConfig, request: FastifyRequest): boolean {
  if (config.cookieSecure !== 'auto') return config.cookieSecure === 'true';
  return request.protocol === 'https' || config.publicBaseUrl.startsWith('https:');
}

/** HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it), Secure over https. */
export function setSessionCookie(reply: FastifyReply, config: AppConfig, cookie: SessionCookie, token: string, expiresAt: Date): void {
  reply.setCookie(cookie.name, token, {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(config, reply.request),
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig, cookie: SessionCookie): void {
  reply.clearCookie(cookie.name, { path: cookie.path, httpOnly: true, sameSite: 'lax', secure: secureCookies(config, reply.request) });
}

export function readSessionCookie(request: FastifyRequest, cookie: SessionCookie): string | undefined {
  const value = request.cookies?.[cookie.name];
  return typeof value === 'string' && value.length > 0 && value.length <= 128 ? value : undefined;
}

/** A new session id on every sign-in; one the browser already had is ended (no session fixation). It acts in `tenantId`, else in the subject's own. */
export async function startSession(
  sessions: ConsoleSessions,
  config: AppConfig,
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: SessionCookie,
  subject: { kind: SessionKind; id: string; tenantId?: string },
): Promise<void> {
  const previous = readSessionCookie(request, cookie);
  if (previous) await sessions.revoke(previous);
  const session = await sessions.create(subject.kind, subject.id, config.consoleSessionTtlMs, subject.tenantId);
  setSessionCookie(reply, config, cookie, session.token, session.expiresAt);
}
