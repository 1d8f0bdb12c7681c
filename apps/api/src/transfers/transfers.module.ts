import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { MerchantAuthModule } from '@app/http';
import { CreateTransferHandler, ReverseTransferHandler } from './transfer.handlers';
import { TransfersController } from './transfers.controller';

/** Transfers of available money between a platform and another party (issue 31, item 3). */
@Module({ imports: [MerchantAuthModule, PaymentsModule], controllers: [TransfersController], providers: [CreateTransferHandler, ReverseTransferHandler] })
export class TransfersModule {}
