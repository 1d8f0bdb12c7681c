import { Controller, HttpCode, Inject, Param, Post, type RawBodyRequest, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  PAYMENT_PROVIDER,
  type PaymentProvider,
  PROVIDER_SIGNATURE_HEADER,
  PROVIDER_TIMESTAMP_HEADER,
  verifyNotification,
} from '@app/payments';
import { envelope } from '../../http/envelope';
import { ApiError } from '../../http/problem';
import { ApplyNotificationCommand } from './apply-notification.command';
import { readNotification } from './read-notification';

/** Where payment providers report outcomes. Authenticated by the provider's HMAC, not by a merchant key. */
@ApiExcludeController()
@Controller('v1/providers')
export class ProviderNotificationsController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  @Post(':provider/notifications')
  @HttpCode(200)
  async receive(@Param('provider') name: string, @Req() request: RawBodyRequest<FastifyRequest>) {
    if (name !== this.provider.name) throw new ApiError(404, 'ABC_001', `No payment provider named ${name}`);
    const raw = request.rawBody?.toString('utf8') ?? '';
    const header = (key: string) => (typeof request.headers[key] === 'string' ? (request.headers[key] as string) : undefined);
    if (!verifyNotification(this.provider.notificationSecret, header(PROVIDER_TIMESTAMP_HEADER), header(PROVIDER_SIGNATURE_HEADER), raw)) {
      throw new ApiError(401, 'AUTH_001', 'The notification signature is missing, stale or wrong');
    }
    const notification = readNotification(request.body);
    const summary = await this.commands.execute(new ApplyNotificationCommand(name, notification));
    return envelope('Notification applied', { orderId: summary.id, status: summary.status });
  }
}
