import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, CurrentMerchant, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { VerifyPaymentDto } from './verify-payment.dto';
import { VerifyPaymentQuery } from '@app/features/payments';
import { PaymentVerificationResponse } from './payment-verification.response';

@ApiTags('payments')
@Controller('v1/trdp/verify')
@MerchantApi()
export class VerifyPaymentController {
  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Payment status of an order or escrow' })
  @ApiEnvelope(PaymentVerificationResponse, { message: 'Payment status retrieved' })
  @ApiProblems({ 404: ['ABC_001'] })
  async verify(@Body() body: VerifyPaymentDto, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const verification = await this.queries.execute(new VerifyPaymentQuery(merchant.merchantId, body.orderId));
    return envelope('Payment status retrieved', verification);
  }
}
