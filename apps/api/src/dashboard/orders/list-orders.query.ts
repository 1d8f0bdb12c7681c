import { Query } from '@nestjs/cqrs';
import type { Santim } from '@app/domain';

export type OrderKind = 'escrow' | 'order';

export interface OrderListRow {
  kind: OrderKind;
  id: string;
  /** The escrow's own orderId, or the plain order's description. */
  reference: string;
  status: string;
  amount: Santim;
  createdAt: Date;
}

export interface OrderListPage {
  rows: OrderListRow[];
  hasNext: boolean;
}

export interface OrderListFilter {
  search?: string;
  status?: string;
  kind?: OrderKind;
  page: number;
  pageSize: number;
}

/** A merchant's orders and escrows, newest first, for the dashboard. */
export class ListOrdersQuery extends Query<OrderListPage> {
  constructor(
    readonly merchantId: string,
    readonly filter: OrderListFilter,
  ) {
    super();
  }
}
