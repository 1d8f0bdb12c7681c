import { Query } from '@nestjs/cqrs';
import type { PayableSummary } from '../payable';

export interface CheckoutView {
  summary: PayableSummary;
  merchantName: string;
}

export class GetCheckoutQuery extends Query<CheckoutView> {
  constructor(
    readonly id: string,
    /**
     * The order as a command just left it. Answering a write from the read models could say "not
     * found" while they lag behind the order's creation, though the write was made; with it, only
     * the merchant's name is read.
     */
    readonly written?: PayableSummary,
  ) {
    super();
  }
}
