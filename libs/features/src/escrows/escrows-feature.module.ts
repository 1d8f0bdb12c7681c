import { Module } from '@nestjs/common';
import { PaymentsModule } from '@app/payments';
import { CancelEscrowHandler } from './cancel-escrow/cancel-escrow.handler';
import { ChangeEscrowHandler } from './change-escrow/change-escrow.handler';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { RefundAllocationHandler } from './refund-allocation/refund-allocation.handler';
import { ReleaseAllocationHandler } from './release-allocation/release-allocation.handler';

/** Escrows' handlers: what creating an escrow and every change to it (release, refund, cancel, disputes, reversals, automatic release) decide. */
@Module({ imports: [PaymentsModule], providers: [CreateEscrowHandler, ReleaseAllocationHandler, RefundAllocationHandler, CancelEscrowHandler, ChangeEscrowHandler] })
export class EscrowsFeatureModule {}
