import { type CanActivate, type ExecutionContext, Inject, Injectable, NotFoundException, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@app/config';
import { ConsoleSessions } from '@app/credentials';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type Account, merchantPrincipal, type Principal } from '@app/domain';
import { AccountDirectory } from '@app/onboarding';
import { merchantName } from '@app/read-models';
import { html, type SafeHtml } from '@app/http';
import { csrfToken } from '../kit/csrf';
import { modeBar } from './modes/mode-bar';
import { type DashboardMode, OwnerTenants } from './modes/owner-tenants';
import { type NavLink, type PageShell, sendPage } from '../kit/page';
import { currentSession, SessionGuard, type SessionRequest, type SessionRule } from '../kit/session.guard';
import { DASHBOARD_COOKIE } from '../kit/session-cookie';

export const DASHBOARD_BRAND: NavLink = { href: '/dashboard', label: 'Merchant dashboard' };
export const DASHBOARD_SIGN_IN = '/dashboard/sign-in';

export const DASHBOARD_NAV: NavLink[] = [
  { href: '/dashboard/balance', label: 'Overview' },
  { href: '/dashboard/orders', label: 'Orders and escrows' },
  { href: '/dashboard/payouts', label: 'Payouts' },
  { href: '/dashboard/payouts/settings', label: 'Payout settings' },
  { href: '/dashboard/statement', label: 'Statement' },
  { href: '/dashboard/sellers', label: 'Sellers' },
  { href: '/dashboard/transfers', label: 'Transfers' },
  { href: '/dashboard/api-keys', label: 'API Keys' },
  { href: '/dashboard/webhooks', label: 'Webhooks' },
  { href: '/dashboard/webhook-endpoints', label: 'Webhook endpoints' },
];

/** What a seller (a platform's account, signed in through its invitation) sees: its own money only. */
export const SELLER_NAV: NavLink[] = [
  { href: '/dashboard/balance', label: 'Overview' },
  { href: '/dashboard/escrows', label: 'Escrows' },
  { href: '/dashboard/payouts', label: 'Payouts and destination' },
  { href: '/dashboard/statement', label: 'Statement' },
];

/** Where a signed-in browser starts, a merchant as a seller: the overview of its balance. */
export const DASHBOARD_HOME = '/dashboard/balance';

const principalOf = (subjectId: string, account: Account | undefined): Principal =>
  account ? { kind: 'seller', accountId: account.accountId, platformId: account.merchantId } : merchantPrincipal(subjectId);

/** A dashboard session's subject as its principal: a seller when its account stream says it is an account, else a merchant. */
export async function dashboardPrincipal(accounts: AccountDirectory, subjectId: string): Promise<Principal> {
  return principalOf(subjectId, await accounts.find(subjectId));
}

/** A dashboard request past its guard: the session's principal, its name, and the mode of the tenant it acts in. */
export interface DashboardRequest extends SessionRequest {
  dashboardMode?: DashboardMode;
  /** The signed-in tenant's name: a seller's legal name, a merchant's registered name (its id when it has none). */
  partyName?: string;
}

export const DASHBOARD_SESSION: SessionRule = { cookie: DASHBOARD_COOKIE, kinds: ['merchant'], signInPath: DASHBOARD_SIGN_IN };
const DashboardSession = SessionGuard(DASHBOARD_SESSION);

const OPEN_TO_SELLERS = 'dashboard:open-to-sellers';
/** A route (or a controller's routes) a seller may open too: it reads or changes only the signed-in subject's own money. */
export const OpenToSellers = () => SetMetadata(OPEN_TO_SELLERS, true);
/** A route of a controller open to sellers that is the platform's alone: to a seller, a page that does not exist. */
export const ClosedToSellers = () => SetMetadata(OPEN_TO_SELLERS, false);

/**
 * A dashboard session, resolved into its principal (libs/domain/src/authority/principal.ts) in the tenant
 * it acts in (its owner's test or live tenant, as the mode switch chose; a seller's own account): a
 * seller (a platform's account, signed in through its invitation) or a merchant, as the account stream
 * says. A seller's only on the routes marked OpenToSellers. Every other page is the platform's, and to
 * a seller a page that does not exist (404), so that a page added later is closed to sellers unless it
 * says otherwise.
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  private readonly session: CanActivate;

  constructor(
    @Inject(ConsoleSessions) sessions: ConsoleSessions,
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(OwnerTenants) private readonly tenants: OwnerTenants,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {
    this.session = new DashboardSession(sessions);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.session.canActivate(context);
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const { tenantId } = currentSession(request);
    const account = await this.accounts.find(tenantId);
    request.principal = principalOf(tenantId, account);
    request.partyName = account?.name ?? (await merchantName(this.db, tenantId)) ?? tenantId;
    request.actor = { type: 'merchant', id: tenantId };
    if (request.principal.kind === 'seller' && !this.reflector.getAllAndOverride<boolean>(OPEN_TO_SELLERS, [context.getHandler(), context.getClass()])) throw new NotFoundException();
    request.dashboardMode = await this.tenants.modeOf(request.principal);
    return true;
  }
}

export interface DashboardPage {
  title: string;
  current: string;
  body: (csrf: string) => SafeHtml;
  script?: string;
}

/** A signed-in page: navigation, who is signed in by name, sign-out, its mode (with the switch), and one CSRF token for every form on it. */
export function sendDashboardPage(reply: FastifyReply, config: AppConfig, page: DashboardPage, status = 200): FastifyReply {
  const csrf = csrfToken(reply, config);
  const request = reply.request as DashboardRequest;
  const shell: PageShell = {
    title: page.title,
    brand: DASHBOARD_BRAND,
    nav: request.principal?.kind === 'seller' ? SELLER_NAV : DASHBOARD_NAV,
    current: page.current,
    signedIn: { who: request.partyName ?? '', signOutAction: '/dashboard/sign-out', csrfToken: csrf },
    body: html`${request.dashboardMode ? modeBar(request.dashboardMode, csrf, DASHBOARD_NAV.find((link) => link.href === page.current)?.href) : ''}${page.body(csrf)}`,
    script: page.script,
  };
  return sendPage(reply, shell, status);
}
