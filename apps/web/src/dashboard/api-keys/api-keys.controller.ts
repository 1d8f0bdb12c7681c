import { Controller, Get, HttpCode, Inject, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { Mode } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CredentialStore } from '@app/credentials';
import { RotateApiSecretCommand } from '@app/onboarding';
import { CsrfGuard } from '../../kit/csrf';
import { HtmlErrorFilter } from '../../kit/html-error.filter';
import { DASHBOARD_BRAND, DashboardSessionGuard, sendDashboardPage } from '../dashboard-shell';
import { DashboardMetadata, SignedInMerchant, SignedInMode } from '../merchant-session';
import { COPY_SCRIPT } from '../revealed-secret';
import { apiKeysBody } from './api-keys.page';

/** The spec's "merchant portal, API Keys": a new secret is shown once, then only its last four characters; each mode's tenant has its own. */
@ApiExcludeController()
@Controller('dashboard/api-keys')
@UseGuards(DashboardSessionGuard)
@UseFilters(new HtmlErrorFilter(DASHBOARD_BRAND))
export class DashboardApiKeysController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  @Get()
  async page(@SignedInMerchant() merchantId: string, @SignedInMode() mode: Mode, @Res() reply: FastifyReply) {
    const last4 = await this.credentials.apiSecretHint(merchantId);
    return sendDashboardPage(reply, this.config, { title: 'API Keys', current: '/dashboard/api-keys', body: (csrf) => apiKeysBody(csrf, { mode, last4 }) });
  }

  /** Answers with the page itself (not a redirect), so the secret never travels in a URL. */
  @Post('rotate')
  @HttpCode(200)
  @UseGuards(CsrfGuard)
  async rotate(@SignedInMerchant() merchantId: string, @SignedInMode() mode: Mode, @DashboardMetadata() metadata: EventMetadata, @Res() reply: FastifyReply) {
    const newSecret = await this.commands.execute(new RotateApiSecretCommand(merchantId, metadata));
    return sendDashboardPage(reply, this.config, {
      title: 'API Keys',
      current: '/dashboard/api-keys',
      body: (csrf) => apiKeysBody(csrf, { mode, last4: newSecret.slice(-4), newSecret }),
      script: COPY_SCRIPT,
    });
  }
}
