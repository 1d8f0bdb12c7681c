import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { CreateTransferHandler, ReverseTransferHandler } from './transfer.handlers';

/** The handlers of transfers of available money between a platform and another party (issue 31, item 3). */
@Module({ imports: [PaymentsModule], providers: [CreateTransferHandler, ReverseTransferHandler] })
export class TransfersFeatureModule {}
