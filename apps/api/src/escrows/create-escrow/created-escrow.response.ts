import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { ESCROW_STATUSES } from '@app/domain';
import { AppliedCommissionResponse } from '../../commissions/commission.response';
import { nullableModel } from '@app/http';
import { AllocationMetadataDto } from './create-escrow.dto';

@ApiExtraModels(AppliedCommissionResponse)
export class CreatedAllocationResponse {
  @ApiProperty({
    example: 'seller-1',
    description: 'The create answer: as the request sent it (an account may be named by its reference). Every later answer: the id it is kept under, as accountId',
  })
  merchantId!: string;

  @ApiProperty({
    example: 'acct_15ce3527c5b25b8263d4fa61b75c76a8',
    description: "Whom the allocation is kept and paid under: the account's accountId when merchantId names one of your accounts (by its id or its reference), otherwise merchantId itself",
  })
  accountId!: string;

  @ApiProperty({ example: 800, description: 'ETB' })
  amount!: number;

  @ApiProperty({
    example: 80,
    description: "ETB: your (the escrow creator's) fee out of amount, earned as the money is released: the request's fee, else what your commission rule computed at creation (commission), else 0",
  })
  fee!: number;

  @ApiProperty({
    ...nullableModel(AppliedCommissionResponse),
    description: 'The commission rule that computed fee, as it was at creation (a later change of the rule changes nothing here); null when the request named the fee or no rule applied',
  })
  commission!: AppliedCommissionResponse | null;

  @ApiProperty({ type: AllocationMetadataDto, required: false })
  metadata?: AllocationMetadataDto;
}

/** The spec's create response `data` for an escrow (escrow.presenter.ts presentCreatedEscrow). */
export class CreatedEscrowResponse {
  @ApiProperty({ example: 'esc_01JD2K8M4Q' })
  escrowId!: string;

  @ApiProperty({ example: 'MKT-1042', description: "The merchant's own order id" })
  orderId!: string;

  @ApiProperty({ example: 1000, description: 'ETB' })
  amount!: number;

  @ApiProperty({ enum: ['ETB'] })
  currency!: string;

  @ApiProperty({ enum: ESCROW_STATUSES, example: 'PENDING' })
  status!: string;

  @ApiProperty({ format: 'uri', example: 'https://pay.example/checkout/esc_01JD2K8M4Q' })
  paymentUrl!: string;

  @ApiProperty({ type: [CreatedAllocationResponse] })
  allocations!: CreatedAllocationResponse[];

  @ApiProperty({ format: 'date-time' })
  expiredAt!: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://merchant.example/callbacks/payments' })
  callbackURL!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://merchant.example/thank-you' })
  redirectUrl!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The test clock its creation attached it to (testClockId in the create body): its rules read that clock\'s time; null: the real time' })
  testClockId!: string | null;
}
