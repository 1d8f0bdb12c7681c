import { Command } from '@nestjs/cqrs';
import type { Principal, Santim, TransferReversal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { TransferView } from '@app/read-models';
import type { CreateTransferDto } from './create-transfer.dto';

/** A reversal just made, with what it left of its transfer. */
export interface TransferReversed {
  transferId: string;
  reversal: TransferReversal;
  /** The transfer's amount, and how much of it its reversals took back in all. */
  amount: Santim;
  reversed: Santim;
}

/** The result: the transfer made (or the one the same keyed request made), in its view's shape. */
export class CreateTransferCommand extends Command<TransferView> {
  constructor(
    /** Who calls (the edge resolved it): the authority rule asks what the other party is to it. */
    readonly principal: Principal,
    /** The caller's key: its id salt keys the transfer's id. */
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateTransferDto,
    readonly metadata: EventMetadata,
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}

export class ReverseTransferCommand extends Command<TransferReversed> {
  constructor(
    readonly principal: Principal,
    readonly merchant: AuthenticatedMerchant,
    readonly transferId: string,
    readonly amount: number | undefined,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
