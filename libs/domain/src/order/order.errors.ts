import { DomainError } from '../shared/domain-error';

/** A refund of an order that was not paid. */
export class OrderNotPaid extends DomainError {
  constructor(status: string) {
    super('ORDER_NOT_PAID', `The order is ${status}: only a paid order can be refunded`, 'conflict');
  }
}

/** A refund of an order refunded in full. */
export class OrderAlreadyRefunded extends DomainError {
  constructor() {
    super('ORDER_ALREADY_REFUNDED', 'All the order was paid has been refunded already', 'conflict');
  }
}

/** An order refund of more than was paid and not yet refunded. */
export class AmountExceedsRefundable extends DomainError {
  constructor(amount: string, refundable: string) {
    super('AMOUNT_EXCEEDS_REFUNDABLE', `${refundable} ETB of the order's payment is left to refund; ${amount} ETB cannot be`, 'conflict');
  }
}

export class OrderNotFound extends DomainError {
  constructor(orderId: string) {
    super('ABC_001', `Order ${orderId} was not found`, 'not_found');
  }
}

/** An order's `fee` is more than its `amount`. */
export class OrderFeeExceedsAmount extends DomainError {
  constructor() {
    super('FEE_EXCEEDS_AMOUNT', 'The fee of the order is more than its amount', 'invalid');
  }
}
