import { Query } from '@nestjs/cqrs';
import type { EscrowState } from '@app/domain';

export interface EscrowView {
  state: EscrowState;
  updatedAt: Date;
}

export class GetEscrowQuery extends Query<EscrowView> {
  constructor(
    readonly merchantId: string,
    readonly escrowId: string,
  ) {
    super();
  }
}
