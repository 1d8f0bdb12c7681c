import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { CreateEscrowController } from './create-escrow/create-escrow.controller';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { GetEscrowController } from './get-escrow/get-escrow.controller';
import { GetEscrowHandler } from './get-escrow/get-escrow.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [CreateEscrowController, GetEscrowController],
  providers: [CreateEscrowHandler, GetEscrowHandler],
})
export class EscrowsModule {}
