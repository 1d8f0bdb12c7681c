import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@app/config';
import type { ConsoleSession } from '@app/credentials';
import type { SafeHtml } from '@app/http';
import { csrfToken } from '../kit/csrf';
import { type NavLink, sendPage } from '../kit/page';
import { SessionGuard, type SessionRule } from '../kit/session.guard';
import { AUDIT_COOKIE } from '../kit/session-cookie';

export const AUDIT_BRAND: NavLink = { href: '/audit', label: 'Audit console' };
export const AUDIT_SIGN_IN = '/audit/sign-in';

export const AUDIT_NAV: NavLink[] = [
  { href: '/audit/events', label: 'Event log' },
  { href: '/audit/escrows', label: 'Escrow timeline' },
  { href: '/audit/ledger', label: 'Ledger' },
  { href: '/audit/disputes', label: 'Disputes' },
  { href: '/audit/negative-balances', label: 'Negative balances' },
  { href: '/audit/accounts', label: 'Sellers' },
  { href: '/audit/statement', label: 'Statements' },
  { href: '/audit/integrity', label: 'Integrity' },
  { href: '/audit/reconciliations', label: 'Reconciliation' },
];

export const AUDIT_SESSION: SessionRule = { cookie: AUDIT_COOKIE, kinds: ['auditor', 'admin'], signInPath: AUDIT_SIGN_IN };
export const AuditSessionGuard = SessionGuard(AUDIT_SESSION);

export function signedInAs(session: ConsoleSession): string {
  if (session.kind === 'auditor') return `Auditor ${session.subjectId}`;
  return session.subjectId === 'admin' ? 'Signed in with the admin key' : `Staff ${session.subjectId}`;
}

export function sendAuditPage(
  reply: FastifyReply,
  config: AppConfig,
  /** `body` as a function: a page with forms of its own gets the CSRF token the page was made with. */
  page: { title: string; current: string; session: ConsoleSession; body: SafeHtml | ((csrf: string) => SafeHtml); script?: string },
): FastifyReply {
  const csrf = csrfToken(reply, config);
  return sendPage(reply, {
    title: page.title,
    brand: AUDIT_BRAND,
    nav: AUDIT_NAV,
    current: page.current,
    signedIn: { who: signedInAs(page.session), signOutAction: '/audit/sign-out', csrfToken: csrf },
    body: typeof page.body === 'function' ? page.body(csrf) : page.body,
    script: page.script,
  });
}
