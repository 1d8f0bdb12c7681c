import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainError, InvalidInput } from '@app/domain';
import { IsString, Matches } from 'class-validator';
import { contentSecurityPolicy, refuseUndeclared, envelope, requestMetadata, type RequestWithActor } from '@app/http';
import { ConfirmOtpCommand, PaymentProviders } from '@app/payments';
import { InitiatePaymentCommand } from '@app/payments';
import { checkoutPage, messagePage, receiptPage } from './checkout.page';
import { checkoutStatus } from './checkout-status';
import { type CheckoutView, GetCheckoutQuery } from '@app/contract';

export class OtpDto {
  @IsString()
  @Matches(/^\d{4,8}$/, { message: 'otp must be 4 to 8 digits' })
  otp!: string;
}

/**
 * The method the customer chose (one of the provider's; the page lists them). The page's first
 * clients posted no body at all, so none, or one without `method`, is the provider's first method.
 */
function chosenMethod(body: unknown): string | undefined {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  refuseUndeclared(body, ['method']);
  const method = (body as Record<string, unknown>).method;
  if (method === undefined) return undefined;
  if (typeof method !== 'string' || method.length > 64) throw new InvalidInput('method must be the name of a payment method');
  return method;
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
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
  ) {}

  @Get('checkout/:id')
  async page(@Param('id') id: string, @Res() reply: FastifyReply) {
    const view = await this.load(id);
    // The methods of the payable's mode's provider (a live payable on a deployment without one has no page).
    const methods = view && (await this.providers.forTenant(view.summary.merchantId).catch(() => undefined))?.methods;
    return this.sendPage(reply, id, (loaded, nonce) => (methods ? checkoutPage(loaded, nonce, methods) : undefined));
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
  async pay(@Param('id') id: string, @Body() body: unknown, @Req() request: RequestWithActor, @Headers('idempotency-key') idempotencyKey?: string) {
    const metadata = requestMetadata(request, { type: 'system', id: 'checkout' });
    const written = await this.commands.execute(new InitiatePaymentCommand(id, metadata, idempotencyKey, chosenMethod(body)));
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
