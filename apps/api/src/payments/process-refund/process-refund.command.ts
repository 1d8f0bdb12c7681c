import { Command } from '@nestjs/cqrs';

export type RefundProgress = 'requested' | 'rejected' | 'settled';

/** Asks the provider to return a pending refund's money (sent by the scheduler, retried until settled). */
export class ProcessRefundCommand extends Command<RefundProgress> {
  constructor(
    readonly id: string,
    readonly refundId: string,
  ) {
    super();
  }
}
