import { Body, Controller, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { attemptIdFor } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { ApplyNotificationCommand, PaymentProviders, type SandboxProvider } from '@app/payments';
import { ApiError, envelope, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { PayableToSettleQuery, paymentVerification, VerifyPaymentQuery } from '@app/features/payments';
import { PaymentVerificationResponse } from '../verify-payment/payment-verification.response';

export class SandboxCompleteDto {
  @ApiProperty({ enum: ['PAID', 'FAILED'], description: 'What the customer did: paid, or let the payment fail' })
  @IsIn(['PAID', 'FAILED'])
  outcome!: 'PAID' | 'FAILED';
}

/** For merchants' automated tests: settle a payment as the sandbox provider would, at once. */
@ApiTags('sandbox')
@Controller('v1/sandbox/orders')
@MerchantApi()
export class SandboxCompleteController {
  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':id/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sandbox only: the provider reports this order PAID or FAILED now (its notification, applied at once)' })
  @ApiEnvelope(PaymentVerificationResponse, { message: 'Sandbox payment settled' })
  @ApiProblems({ 404: ['ABC_001', 'SANDBOX_ONLY'], 409: ['ORDER_NOT_PAYABLE', 'ORDER_EXPIRED', 'CONCURRENT_MODIFICATION'] })
  async complete(
    @Param('id') id: string,
    @Body() body: SandboxCompleteDto,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Headers('idempotency-key') idempotencyKey?: string,
  ) {
    // Test mode's money only: a live key's payments are settled by the live provider, never here.
    if (merchant.mode !== 'test') throw new ApiError(404, 'SANDBOX_ONLY', 'Live payments are settled by the live provider, not by the sandbox: complete test orders with a test key (sk_test_…)');
    // Any id verify takes: ours (ord_…, esc_…) or the merchant's own escrow orderId, read once.
    const { payableId, phone, amount } = await this.queries.execute(new PayableToSettleQuery(merchant.merchantId, id));
    // Under a key, a retry settles the push its first attempt made (the checkout's Pay derives its attempt the same way).
    const attempt = idempotencyKey ? attemptIdFor(payableId, idempotencyKey) : undefined;
    const sandbox = this.providers.forMode('test') as SandboxProvider;
    const notification = await sandbox.settle(payableId, phone, amount, body.outcome, attempt);
    // The sandbox's report applied here, as the provider's own (ApplyNotificationCommand's actor), rather
    // than posted back to this API over HTTP: the payable is this test merchant's, so the notification
    // route's signature and mode checks hold already. Not applied now, it is delivered later, as an
    // unacknowledged notification is, and the answer says what the books hold meanwhile.
    const applied = await this.commands.execute(new ApplyNotificationCommand(sandbox.name, notification)).catch(() => sandbox.redeliver(notification));
    // What the report recorded is answered from the state the command decided, which is what its append
    // wrote to the view verify reads (read-your-writes holds: the command returns once the view has it);
    // a report that changed nothing, or was not applied now, is answered from the view.
    if (applied?.recordedAt) return envelope('Sandbox payment settled', paymentVerification(applied.summary, applied.recordedAt));
    return envelope('Sandbox payment settled', await this.queries.execute(new VerifyPaymentQuery(merchant.merchantId, id)));
  }
}
