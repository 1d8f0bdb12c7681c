import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@app/config';
import type { SafeHtml } from '../http/html';
import { csrfToken } from '../web/csrf';
import { type NavLink, type PageShell, sendPage } from '../web/page';
import { SessionGuard, type SessionRule } from '../web/session.guard';
import { DASHBOARD_COOKIE } from '../web/session-cookie';

export const DASHBOARD_BRAND: NavLink = { href: '/dashboard', label: 'Merchant dashboard' };
export const DASHBOARD_SIGN_IN = '/dashboard/sign-in';

export const DASHBOARD_NAV: NavLink[] = [
  { href: '/dashboard/orders', label: 'Orders and escrows' },
  { href: '/dashboard/payouts', label: 'Payouts' },
  { href: '/dashboard/payouts/settings', label: 'Payout settings' },
  { href: '/dashboard/statement', label: 'Statement' },
  { href: '/dashboard/api-keys', label: 'API Keys' },
  { href: '/dashboard/webhooks', label: 'Webhooks' },
];

export const DASHBOARD_SESSION: SessionRule = { cookie: DASHBOARD_COOKIE, kinds: ['merchant'], signInPath: DASHBOARD_SIGN_IN };
export const DashboardSessionGuard = SessionGuard(DASHBOARD_SESSION);

export interface DashboardPage {
  title: string;
  current: string;
  who: string;
  body: (csrf: string) => SafeHtml;
  script?: string;
}

/** A signed-in page: navigation, sign-out, and one CSRF token for every form on it. */
export function sendDashboardPage(reply: FastifyReply, config: AppConfig, page: DashboardPage, status = 200): FastifyReply {
  const csrf = csrfToken(reply, config);
  const shell: PageShell = {
    title: page.title,
    brand: DASHBOARD_BRAND,
    nav: DASHBOARD_NAV,
    current: page.current,
    signedIn: { who: page.who, signOutAction: '/dashboard/sign-out', csrfToken: csrf },
    body: page.body(csrf),
    script: page.script,
  };
  return sendPage(reply, shell, status);
}
