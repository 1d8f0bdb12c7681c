import { DomainError } from './domain-error';

export class PaymentWindowClosed extends DomainError {
  constructor() {
    super('ORDER_EXPIRED', 'The payment window of this order has closed', 'conflict');
  }
}

export class OrderNotPayable extends DomainError {
  constructor(status: string) {
    super('ORDER_NOT_PAYABLE', `The order is ${status} and can no longer be paid`, 'conflict');
  }
}

export interface PaymentAttempt {
  attemptId: string;
  provider: string;
  providerReference: string;
  otpRequired: boolean;
  initiatedAt: string;
}

/** A payment can be started while the order waits for one and its window is open. */
export function assertPayable(status: string, expiresAt: string, at: string): void {
  if (status !== 'PENDING') throw new OrderNotPayable(status);
  if (Date.parse(at) >= Date.parse(expiresAt)) throw new PaymentWindowClosed();
}
