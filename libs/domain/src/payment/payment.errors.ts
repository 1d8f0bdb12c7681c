import { DomainError } from '../shared/domain-error';

/** Paying after the order's payment window closed. */
export class PaymentWindowClosed extends DomainError {
  constructor() {
    super('ORDER_EXPIRED', 'The payment window of this order has closed', 'conflict');
  }
}

/** Paying an order that is no longer pending. */
export class OrderNotPayable extends DomainError {
  constructor(status: string) {
    super('ORDER_NOT_PAYABLE', `The order is ${status} and can no longer be paid`, 'conflict');
  }
}

/** A one-time code where none was asked for. */
export class OtpNotExpected extends DomainError {
  constructor() {
    super('OTP_NOT_EXPECTED', 'No payment is waiting for a one-time code', 'conflict');
  }
}

/** The provider refused the one-time code; the message gives the provider's reason. */
export class OtpRejected extends DomainError {
  constructor(message: string) {
    super('OTP_REJECTED', message, 'invalid');
  }
}

export class UnknownRefund extends DomainError {
  constructor(refundId: string) {
    super('REFUND_NOT_FOUND', `No refund ${refundId} was requested`, 'not_found');
  }
}

/** Neither an order nor an escrow of ours has this id (our ids say which they are: ord_…, esc_…). */
export class PayableNotFound extends DomainError {
  constructor(id: string) {
    super('ABC_001', `Order ${id} was not found`, 'not_found');
  }
}
