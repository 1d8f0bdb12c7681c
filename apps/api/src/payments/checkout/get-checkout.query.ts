import { Query } from '@nestjs/cqrs';
import type { PayableSummary } from '../payable';

export interface CheckoutView {
  summary: PayableSummary;
  merchantName: string;
}

export class GetCheckoutQuery extends Query<CheckoutView> {
  constructor(readonly id: string) {
    super();
  }
}
