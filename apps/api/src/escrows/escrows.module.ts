import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { AutoReleaseController } from './auto-release/auto-release.controller';
import { DisputeController } from './disputes/dispute.controller';
import { CancelEscrowController } from './cancel-escrow/cancel-escrow.controller';
import { CreateEscrowController } from './create-escrow/create-escrow.controller';
import { GetEscrowController } from './get-escrow/get-escrow.controller';
import { ListEscrowsController } from './list-escrows/list-escrows.controller';
import { RefundAllocationController } from './refund-allocation/refund-allocation.controller';
import { ReleaseAllocationController } from './release-allocation/release-allocation.controller';
import { ReverseAllocationController } from './reverse-allocation/reverse-allocation.controller';
import { PaymentsModule } from '@app/payments';
import { EscrowsFeatureModule } from '@app/features/escrows';

@Module({
  imports: [MerchantAuthModule, PaymentsModule, EscrowsFeatureModule],
  controllers: [
    CreateEscrowController,
    GetEscrowController,
    ListEscrowsController,
    ReleaseAllocationController,
    RefundAllocationController,
    CancelEscrowController,
    AutoReleaseController,
    DisputeController,
    ReverseAllocationController,
  ],
})
export class EscrowsModule {}
