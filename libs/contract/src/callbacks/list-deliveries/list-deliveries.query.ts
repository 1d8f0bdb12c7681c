import { Query } from '@nestjs/cqrs';
import type { StoredDelivery } from '@app/read-models';

export type DeliveryRow = StoredDelivery;

/** The deliveries of one order or escrow, oldest first; without an order, the merchant's latest ones, newest first. */
export class ListDeliveriesQuery extends Query<DeliveryRow[]> {
  constructor(
    readonly merchantId: string,
    readonly orderId: string | undefined,
    readonly latest = 50,
  ) {
    super();
  }
}
