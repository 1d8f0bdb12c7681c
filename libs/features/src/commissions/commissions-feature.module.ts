import { Module } from '@nestjs/common';
import { ChangeCommissionHandler } from './change-commission.handler';

/** A platform's commission rules: setting and removing its default and its sellers' overrides. */
@Module({ providers: [ChangeCommissionHandler] })
export class CommissionsFeatureModule {}
