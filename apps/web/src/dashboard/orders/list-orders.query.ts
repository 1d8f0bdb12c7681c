import { Query } from '@nestjs/cqrs';
import type { PayableListFilter, PayableListRow } from '@app/read-models';

export type OrderKind = 'escrow' | 'order';

export type OrderListRow = PayableListRow;

export interface OrderListPage {
  rows: OrderListRow[];
  hasNext: boolean;
}

export type OrderListFilter = PayableListFilter;

/** A merchant's orders and escrows, newest first, for the dashboard. */
export class ListOrdersQuery extends Query<OrderListPage> {
  constructor(
    readonly merchantId: string,
    readonly filter: OrderListFilter,
  ) {
    super();
  }
}
