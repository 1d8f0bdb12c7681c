import { Body, Controller, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ConsoleSessions } from '@app/credentials';
import { InvalidInput, type Mode } from '@app/domain';
import { CsrfGuard } from '../../kit/csrf';
import { readForm } from '../../kit/form';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { redirect } from '../../kit/page';
import { currentSession, type SessionRequest } from '../../kit/session.guard';
import { DASHBOARD_BRAND, DashboardSessionGuard } from '../dashboard-shell';
import { ModeSwitchForm } from './mode-switch.form';
import { OwnerTenants } from './owner-tenants';

/**
 * The owner's switch between its test and live tenants (docs/concepts/modes.md): the session acts in
 * the chosen one from the next page on, and every page and form with it. A seller's account is in one
 * mode only, so the route is not OpenToSellers: to a seller it does not exist.
 */
@ApiExcludeController()
@Controller('dashboard/mode')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
export class DashboardModeSwitchController {
  constructor(
    @Inject(ConsoleSessions) private readonly sessions: ConsoleSessions,
    @Inject(OwnerTenants) private readonly tenants: OwnerTenants,
  ) {}

  @Post()
  @UseGuards(CsrfGuard)
  async switch(@Body() body: unknown, @Req() request: SessionRequest, @Res() reply: FastifyReply) {
    const form = readForm(ModeSwitchForm, body);
    const mode = form.mode as Mode;
    const session = currentSession(request);
    const tenantId = await this.tenants.tenantIn(session.subjectId, mode);
    if (!tenantId) throw new InvalidInput(`This merchant has no ${mode} mode yet: the operator opens it (POST /v1/admin/merchants/{merchantId}/other-mode)`);
    await this.sessions.actIn(session.token, tenantId);
    return redirect(reply, form.section ?? '/dashboard/orders');
  }
}
