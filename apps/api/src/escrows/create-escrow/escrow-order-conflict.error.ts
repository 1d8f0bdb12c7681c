import { DomainError } from '@app/domain';

export class EscrowOrderConflict extends DomainError {
  constructor(orderId: string) {
    super(
      'ESCROW_ORDER_CONFLICT',
      `An escrow for orderId ${JSON.stringify(orderId)} already exists with different details; use a new orderId`,
      'conflict',
    );
  }
}
