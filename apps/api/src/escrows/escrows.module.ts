import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { AutoReleaseController } from './auto-release/auto-release.controller';
import { ChangeEscrowHandler } from './change-escrow/change-escrow.handler';
import { DisputeController } from './disputes/dispute.controller';
import { CancelEscrowController } from './cancel-escrow/cancel-escrow.controller';
import { CancelEscrowHandler } from './cancel-escrow/cancel-escrow.handler';
import { CreateEscrowController } from './create-escrow/create-escrow.controller';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { GetEscrowController } from './get-escrow/get-escrow.controller';
import { ListEscrowsController } from './list-escrows/list-escrows.controller';
import { RefundAllocationController } from './refund-allocation/refund-allocation.controller';
import { RefundAllocationHandler } from './refund-allocation/refund-allocation.handler';
import { ReleaseAllocationController } from './release-allocation/release-allocation.controller';
import { ReleaseAllocationHandler } from './release-allocation/release-allocation.handler';
import { ReverseAllocationController } from './reverse-allocation/reverse-allocation.controller';
import { PaymentsModule } from '@app/payments';

@Module({
  imports: [MerchantAuthModule, PaymentsModule],
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
  providers: [CreateEscrowHandler, ReleaseAllocationHandler, RefundAllocationHandler, CancelEscrowHandler, ChangeEscrowHandler],
})
export class EscrowsModule {}
