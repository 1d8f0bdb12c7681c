import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '@app/http';
import { TransfersFeatureModule } from '@app/features/transfers';
import { TransfersController } from './transfers.controller';

/** Transfers of available money between a platform and another party (issue 31, item 3). */
@Module({ imports: [MerchantAuthModule, TransfersFeatureModule], controllers: [TransfersController] })
export class TransfersModule {}
