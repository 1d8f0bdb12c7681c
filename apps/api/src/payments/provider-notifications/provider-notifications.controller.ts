import { Controller, HttpCode, Inject, Param, Post, type RawBodyRequest, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApplyNotificationCommand, CHAPA_WEBHOOK_SCHEMA, PaymentFlow, PaymentProviders, SANDBOX_NOTIFICATION_SCHEMA } from '@app/payments';
import { envelope, ApiError, ProviderSignedApi, ApiEnvelope, ApiProblems } from '@app/http';
import { NotificationAppliedResponse } from './notification-applied.response';

/** Where payment providers report outcomes. Authenticated by the provider's own signature scheme, not by a merchant key. */
@ApiTags('providers')
@Controller('v1/providers')
@ProviderSignedApi()
export class ProviderNotificationsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(PaymentFlow) private readonly payments: PaymentFlow,
  ) {}

  @Post(':provider/notifications')
  @HttpCode(200)
  @ApiOperation({ summary: 'A payment provider reports an outcome (signed over the exact body; not for merchants)' })
  // The provider's own body, read by its reader (libs/payments): the sandbox's, or Chapa's webhook.
  @ApiBody({ required: true, schema: { anyOf: [SANDBOX_NOTIFICATION_SCHEMA, CHAPA_WEBHOOK_SCHEMA] } })
  @ApiEnvelope(NotificationAppliedResponse, { message: 'Notification applied', description: 'Applied (or ignored: signed, but about nothing kept)' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['CONCURRENT_MODIFICATION'] })
  async receive(@Param('provider') name: string, @Req() request: RawBodyRequest<FastifyRequest>) {
    const named = this.providers.named(name);
    if (!named) throw new ApiError(404, 'ABC_001', `No payment provider named ${name}`);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, typeof value === 'string' ? value : undefined]));
    const notification = named.provider.readNotification({ headers, body: request.rawBody?.toString('utf8') ?? '' });
    if (!notification) throw new ApiError(401, 'AUTH_001', 'The notification signature is missing, stale or wrong');
    // Signed, but about nothing we keep (a provider reports more kinds of events than we act on).
    if (notification === 'ignored') return envelope('Notification ignored', {});
    // A provider reports on its own mode's objects only: Chapa's notification cannot pay a test order, nor the sandbox's a live one.
    const payable = await this.payments.load(notification.orderId);
    if ((await this.providers.modeOf(payable.merchantId)) !== named.mode) throw new ApiError(404, 'ABC_001', `No ${named.mode} payment ${notification.orderId}`);
    const { summary } = await this.commands.execute(new ApplyNotificationCommand(name, notification));
    return envelope('Notification applied', { orderId: summary.id, status: summary.status });
  }
}
