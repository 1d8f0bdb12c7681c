import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type EscrowOutline, parseEtb, subtractSantim, toEtbNumber, ZERO, type Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import { envelope, ApiEnvelope, ApiProblems, MerchantApi, Caller, CurrentMerchant, RequestMetadata } from '@app/http';
import { ChangeEscrowCommand, ReverseAllocationDto } from '@app/contract';
import { ReversalResponse } from './reversal.response';

/** The reversal the command just requested: the escrow's newest refund, with its share of the fee given back. */
function presentReversal(escrow: EscrowOutline) {
  const reversal = escrow.refunds[escrow.refunds.length - 1];
  const request = escrow.payment.refunds.find((r) => r.refundId === reversal.refundId)!;
  const feeReturned = reversal.feeReturned ?? ZERO;
  return {
    refundId: reversal.refundId,
    escrowId: escrow.terms.escrowId,
    orderId: escrow.terms.orderId,
    merchantId: reversal.shares[0].merchantId,
    amount: toEtbNumber(request.amount),
    feeReturned: toEtbNumber(feeReturned),
    merchantDebited: toEtbNumber(subtractSantim(request.amount, feeReturned)),
    reason: reversal.note ?? '',
    status: request.status,
    requestedAt: request.requestedAt,
  };
}

@ApiTags('escrow')
@Controller('v1/trdp/escrow')
@MerchantApi()
export class ReverseAllocationController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Post(':escrowId/reversals')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Take back money already released to an allocation (a return): refunded to the customer through the provider, debited from the merchant (which may go below zero, unless it is a closed account: 409 ACCOUNT_CLOSED beyond what it still has available)',
  })
  @ApiEnvelope(ReversalResponse, { message: 'Reversal requested', status: 201 })
  @ApiProblems({
    404: ['ABC_001', 'UNKNOWN_ALLOCATION_MERCHANT'],
    409: ['LIVE_MODE_NOT_CONFIGURED', 'ALLOCATION_NOT_FOUND', 'NOTHING_TO_REVERSE', 'AMOUNT_EXCEEDS_REVERSIBLE', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'],
    503: ['LEDGER_NOT_CURRENT'],
  })
  async reverse(@Param('escrowId') escrowId: string, @Body() body: ReverseAllocationDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @Caller() principal: Principal, @RequestMetadata() metadata: EventMetadata) {
    const amount = body.amount === undefined ? undefined : parseEtb(body.amount, 'amount');
    const { escrow } = await this.commands.execute(
      new ChangeEscrowCommand(
        principal,
        merchant,
        escrowId,
        (at) => ({
          type: 'ReverseAllocation',
          data: { escrowId, merchantId: merchant.merchantId, allocation: body.merchantId, ...(amount !== undefined ? { amount } : {}), reason: body.reason, refundFee: body.refundFee === true, at },
        }),
        metadata,
      ),
    );
    return envelope('Reversal requested', presentReversal(escrow));
  }
}
