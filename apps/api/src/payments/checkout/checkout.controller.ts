import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainError } from '@app/domain';
import { IsString, Matches } from 'class-validator';
import { contentSecurityPolicy } from '../../http/content-security-policy';
import { envelope } from '../../http/envelope';
import { ConfirmOtpCommand } from '../confirm-otp/confirm-otp.command';
import { InitiatePaymentCommand } from '../initiate-payment/initiate-payment.command';
import { checkoutPage, messagePage, receiptPage } from './checkout.page';
import { checkoutStatus } from './checkout-status';
import { type CheckoutView, GetCheckoutQuery } from './get-checkout.query';

export class OtpDto {
  @IsString()
  @Matches(/^\d{4,8}$/, { message: 'otp must be 4 to 8 digits' })
  otp!: string;
}

/**
 * The customer's side: the checkout page at payment_url, its polling and actions, and the receipt.
 * No key is needed; the order id in the URL is unguessable, and the page shows the phone masked.
 */
@ApiExcludeController()
@Controller()
export class CheckoutController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('checkout/:id')
  async page(@Param('id') id: string, @Res() reply: FastifyReply) {
    return this.sendPage(reply, id, (view, nonce) => checkoutPage(view, nonce));
  }

  @Get('receipts/:id')
  async receipt(@Param('id') id: string, @Res() reply: FastifyReply) {
    return this.sendPage(reply, id, (view, nonce) =>
      view.summary.paidAt ? receiptPage(view, nonce) : undefined,
    );
  }

  @Get('checkout/:id/status')
  async status(@Param('id') id: string) {
    return this.statusOf(new GetCheckoutQuery(id));
  }

  @Post('checkout/:id/pay')
  @HttpCode(200)
  async pay(@Param('id') id: string, @Headers('idempotency-key') idempotencyKey?: string) {
    const written = await this.commands.execute(new InitiatePaymentCommand(id, { actor: { type: 'system', id: 'checkout' } }, idempotencyKey));
    return this.statusOf(new GetCheckoutQuery(id, written));
  }

  @Post('checkout/:id/otp')
  @HttpCode(200)
  async otp(@Param('id') id: string, @Body() body: OtpDto) {
    const current = await this.commands.execute(new ConfirmOtpCommand(id, body.otp));
    return this.statusOf(new GetCheckoutQuery(id, current));
  }

  private async statusOf(query: GetCheckoutQuery) {
    return envelope('Checkout status', checkoutStatus(await this.queries.execute(query), this.config.publicBaseUrl));
  }

  private async sendPage(
    reply: FastifyReply,
    id: string,
    render: (view: CheckoutView, nonce: string) => string | undefined,
  ) {
    const nonce = randomBytes(16).toString('base64');
    const view = await this.load(id);
    const page = view && render(view, nonce);
    return reply
      .status(page ? 200 : 404)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', contentSecurityPolicy(nonce, 'nonce'))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(page ?? messagePage('Not found', 'There is no payment or receipt at this address.', nonce));
  }

  private async load(id: string): Promise<CheckoutView | undefined> {
    try {
      return await this.queries.execute(new GetCheckoutQuery(id));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return undefined;
      throw error;
    }
  }
}
