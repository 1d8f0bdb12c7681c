import { Body, Controller, Get, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ConsoleSessions, SIGN_IN_POLICY } from '@app/credentials';
import { html } from '@app/http';
import { CsrfGuard, csrfToken } from '../kit/csrf';
import { NoFields, readForm } from '../kit/form';
import { AuditorSignInForm } from './audit-console.forms';
import { HtmlErrorFilter } from '../kit/html-error.filter';
import { notice, type Notice, redirect, sendPage } from '../kit/page';
import { endSession, findSession, type SessionRequest, signedOutNotice } from '../kit/session.guard';
import { AUDIT_COOKIE, startSession } from '../kit/session-cookie';
import { AUDIT_BRAND, AUDIT_SESSION, AUDIT_SIGN_IN, AuditSessionGuard } from './audit-console-shell';
import { AuditorSignIn } from './auditor-sign-in.service';

function signInPage(csrf: string, message?: Notice) {
  return {
    title: 'Sign in',
    brand: AUDIT_BRAND,
    narrow: true,
    body: html`<h1>Sign in to the audit console</h1>
${notice(message)}
<form class="card" method="post" action="/audit/sign-in">
  <input type="hidden" name="_csrf" value="${csrf}">
  <label for="key">Auditor key</label>
  <input id="key" name="key" type="password" autocomplete="current-password" required maxlength="512" aria-describedby="key-help">
  <p id="key-help" class="muted">An auditor key (ak_…) from your administrator, or the admin key.</p>
  <div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  };
}

/** Staff sign in with a key once; the console keeps a server-side session instead of the key. */
@ApiExcludeController()
@Controller('audit')
@UseFilters(new HtmlErrorFilter(AUDIT_BRAND))
export class AuditConsoleIdentityController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditorSignIn) private readonly signIn: AuditorSignIn,
    @Inject(ConsoleSessions) private readonly sessions: ConsoleSessions,
  ) {}

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return redirect(reply, (await findSession(this.sessions, request, AUDIT_SESSION)) ? '/audit/events' : AUDIT_SIGN_IN);
  }

  @Get('sign-in')
  form(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return sendPage(reply, signInPage(csrfToken(reply, this.config), signedOutNotice(request)));
  }

  @Post('sign-in')
  @UseGuards(CsrfGuard)
  async submit(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const key = readForm(AuditorSignInForm, body).key?.trim() ?? '';
    const outcome = key ? await this.signIn.attempt(key, request.ip) : { ok: false as const, locked: false };
    if (!outcome.ok) {
      const text = outcome.locked ? `Too many failed attempts. Signing in from here is paused for ${SIGN_IN_POLICY.lockMs / 60_000} minutes.` : 'That key is not valid.';
      return sendPage(reply, signInPage(csrfToken(reply, this.config), { text, tone: 'bad' }), outcome.locked ? 429 : 401);
    }
    await startSession(this.sessions, this.config, request, reply, AUDIT_COOKIE, { kind: outcome.kind, id: outcome.subjectId });
    return redirect(reply, '/audit/events');
  }

  @Post('sign-out')
  @UseGuards(AuditSessionGuard, CsrfGuard)
  async signOut(@Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    readForm(NoFields, body);
    return endSession(this.sessions, this.config, request, reply, AUDIT_SESSION);
  }
}
