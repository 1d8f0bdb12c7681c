import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { CancelEscrowHandler } from './cancel-escrow/cancel-escrow.handler';
import { EscrowActionsController } from './escrow-actions.controller';
import { ReleaseAllocationHandler } from './release-allocation/release-allocation.handler';
import { CreateEscrowController } from './create-escrow/create-escrow.controller';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { GetEscrowController } from './get-escrow/get-escrow.controller';
import { GetEscrowHandler } from './get-escrow/get-escrow.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [CreateEscrowController, GetEscrowController, EscrowActionsController],
  providers: [CreateEscrowHandler, GetEscrowHandler, ReleaseAllocationHandler, CancelEscrowHandler],
})
export class EscrowsModule {}
