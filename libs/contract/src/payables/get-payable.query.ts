import { Query } from '@nestjs/cqrs';
import type { PayableKind } from '@app/domain';
import type { StoredPayable } from '@app/read-models';

export type PayableRow = StoredPayable;

/** One of the merchant's orders or escrows, by our id; another merchant's is one that does not exist. */
export class GetPayableQuery extends Query<PayableRow> {
  constructor(
    readonly merchantId: string,
    readonly kind: PayableKind,
    readonly id: string,
  ) {
    super();
  }
}
