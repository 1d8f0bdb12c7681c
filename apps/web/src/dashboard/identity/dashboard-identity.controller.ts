import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ConsoleSessions, hashPassword, MerchantLogins, PASSWORD_MIN_LENGTH, SIGN_IN_POLICY } from '@app/credentials';
import { CsrfGuard, csrfToken } from '../../kit/csrf';
import { NoFields, readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { type Notice, redirect, sendPage } from '../../kit/page';
import { endSession, findSession, type SessionRequest, signedOutNotice } from '../../kit/session.guard';
import { DASHBOARD_COOKIE, startSession } from '../../kit/session-cookie';
import { CommandBus } from '@nestjs/cqrs';
import { AccountDirectory } from '@app/onboarding';
import { RecordAccountInvitationUsedCommand } from '@app/contract';
import { DASHBOARD_BRAND, DASHBOARD_SESSION, DASHBOARD_SIGN_IN, DASHBOARD_HOME, dashboardPrincipal, DashboardSessionGuard, OpenToSellers } from '../dashboard-shell';
import { InvitationForm, SignInForm } from './identity.forms';
import { invitationPage, signInPage } from './identity.pages';
import { MerchantSignIn } from './merchant-sign-in.service';
import { OwnerTenants } from '../modes/owner-tenants';

const LOCKED: Notice = {
  text: `Too many failed attempts. Signing in with this e-mail is paused for ${SIGN_IN_POLICY.lockMs / 60_000} minutes; try again later.`,
  tone: 'bad',
};

/** Sign-in, sign-out and the owner's invitation: the only dashboard pages open without a session. */
@ApiExcludeController()
@Controller('dashboard')
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
export class DashboardIdentityController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MerchantSignIn) private readonly signIn: MerchantSignIn,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(ConsoleSessions) private readonly sessions: ConsoleSessions,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(OwnerTenants) private readonly tenants: OwnerTenants,
  ) {}

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await findSession(this.sessions, request, DASHBOARD_SESSION);
    return redirect(reply, session ? DASHBOARD_HOME : DASHBOARD_SIGN_IN);
  }

  @Get('sign-in')
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return sendPage(reply, signInPage(csrfToken(reply, this.config), { notice: signedOutNotice(request) }));
  }

  @Post('sign-in')
  @UseGuards(CsrfGuard)
  async submitSignIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const form = readForm(SignInForm, body);
    const email = form.email?.trim() ?? '';
    const password = form.password ?? '';
    const outcome = email && password ? await this.signIn.attempt(email, password) : { ok: false as const, locked: false };
    if (!outcome.ok) {
      const notice = outcome.locked ? LOCKED : ({ text: 'The e-mail or the password is not correct.', tone: 'bad' } as const);
      return sendPage(reply, signInPage(csrfToken(reply, this.config), { email, notice }), outcome.locked ? 429 : 401);
    }
    await startSession(this.sessions, this.config, request, reply, DASHBOARD_COOKIE, { kind: 'merchant', id: outcome.merchantId, tenantId: await this.tenants.signInTenant(outcome.merchantId) });
    return redirect(reply, DASHBOARD_HOME);
  }

  @Post('sign-out')
  @OpenToSellers()
  @UseGuards(DashboardSessionGuard, CsrfGuard)
  async signOut(@Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    readForm(NoFields, body);
    return endSession(this.sessions, this.config, request, reply, DASHBOARD_SESSION);
  }

  @Get('invitation')
  invitation(@Res() reply: FastifyReply) {
    return sendPage(reply, invitationPage(csrfToken(reply, this.config)));
  }

  @Post('invitation')
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async acceptInvitation(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const form = readForm(InvitationForm, body);
    const token = form.token?.trim() ?? '';
    const password = form.password ?? '';
    const again = (text: string, status: number) =>
      sendPage(reply, invitationPage(csrfToken(reply, this.config), { token, notice: { text, tone: 'bad' } }), status);
    if (password.length < PASSWORD_MIN_LENGTH) return again(`The password needs at least ${PASSWORD_MIN_LENGTH} characters.`, 400);
    if (password !== (form.confirm ?? '')) return again('The two passwords differ.', 400);
    const merchantId = token ? await this.logins.accept(token, await hashPassword(password)) : undefined;
    if (!merchantId) return again('This invitation has already been used or has expired. Ask your administrator for a new one.', 410);
    // A new password ends whatever sessions the old one opened.
    await this.sessions.revokeAll('merchant', merchantId);
    const principal = await dashboardPrincipal(this.accounts, merchantId);
    if (principal.kind === 'seller') {
      await this.commands.execute(
        new RecordAccountInvitationUsedCommand(merchantId, { correlationId: String(request.id), causationId: String(request.id), actor: { type: 'merchant', id: merchantId } }),
      );
    }
    await startSession(this.sessions, this.config, request, reply, DASHBOARD_COOKIE, { kind: 'merchant', id: merchantId, tenantId: await this.tenants.signInTenant(merchantId) });
    return redirect(reply, DASHBOARD_HOME);
  }
}
