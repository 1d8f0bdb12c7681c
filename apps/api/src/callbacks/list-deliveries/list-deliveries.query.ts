import { Query } from '@nestjs/cqrs';
import type { DeliveryState } from '@app/callbacks';

export interface DeliveryRow {
  state: DeliveryState;
  createdAt: Date;
  updatedAt: Date;
}

export class ListDeliveriesQuery extends Query<DeliveryRow[]> {
  constructor(
    readonly merchantId: string,
    readonly orderId: string,
  ) {
    super();
  }
}
