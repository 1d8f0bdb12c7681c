import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedMerchant } from '@app/merchants';
import { MerchantAuthGuard } from '../../http/auth.guards';
import { envelope } from '../../http/envelope';
import { CurrentMerchant } from '../../http/request-context';
import { VerifyPaymentDto } from './verify-payment.dto';
import { VerifyPaymentQuery } from './verify-payment.query';

@ApiTags('payments')
@ApiHeader({ name: 'x-api-secret', required: true })
@Controller('v1/trdp/verify')
@UseGuards(MerchantAuthGuard)
export class VerifyPaymentController {
  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Payment status of an order or escrow' })
  async verify(@Body() body: VerifyPaymentDto, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const verification = await this.queries.execute(new VerifyPaymentQuery(merchant.merchantId, body.orderId));
    return envelope('Payment status retrieved', verification);
  }
}
