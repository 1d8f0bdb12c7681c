import type { EscrowCommand } from '../escrow/escrow.commands';
import type { AllocationReleased, EscrowCancelled, EscrowCreated, EscrowEvent, EscrowRefundRequest } from '../escrow/escrow.events';
import { santim, type Santim } from '../shared/money';

/** One checkout: two merchants share 225 ETB, payable for the default 30 minutes. */
export const ESCROW_ID = 'esc-1';
/** The marketplace that created the escrow: only it may release or cancel. */
export const OWNER = 'platform-1';
export const CREATED_AT = '2030-01-01T10:00:00.000Z';
export const EXPIRES_AT = '2030-01-01T10:30:00.000Z';
export const DURING_WINDOW = '2030-01-01T10:10:00.000Z';
export const AFTER_EXPIRY = '2030-01-01T10:45:00.000Z';
export const LATER = '2030-01-01T11:00:00.000Z';
export const AMOUNT = santim(22_500);
export const PAYMENT_REF = 'pay-1';

export function escrowCreated(overrides: Partial<EscrowCreated['data']> = {}): EscrowCreated {
  return {
    type: 'EscrowCreated',
    data: {
      escrowId: ESCROW_ID,
      merchantId: OWNER,
      orderId: 'order-1',
      amount: AMOUNT,
      currency: 'ETB',
      customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
      items: [{ productId: 'p-1', itemName: 'Coffee', quantity: 1, unitPrice: AMOUNT }],
      allocations: [
        { merchantId: 'm-1', amount: santim(10_000) },
        { merchantId: 'm-2', amount: santim(12_500) },
      ],
      expiresAt: EXPIRES_AT,
      requestFingerprint: 'fp-1',
      createdAt: CREATED_AT,
      ...overrides,
    },
  };
}

// Commands

export const createEscrow = (data: EscrowCreated['data'] = escrowCreated().data): EscrowCommand => ({ type: 'CreateEscrow', data });

export const recordPayment = ({ ref = PAYMENT_REF, amount = AMOUNT, at = DURING_WINDOW }: { ref?: string; amount?: Santim; at?: string } = {}): EscrowCommand => ({
  type: 'RecordPayment',
  data: { externalReferenceId: ref, paymentType: 'telebirr', amount, at },
});

export const recordPaymentFailure = ({ ref = PAYMENT_REF, at = DURING_WINDOW } = {}): EscrowCommand => ({
  type: 'RecordPaymentFailure',
  data: { externalReferenceId: ref, reason: 'INSUFFICIENT_BALANCE', at },
});

export const expireEscrow = (at: string): EscrowCommand => ({ type: 'ExpirePayment', data: { at } });

export const releaseAllocation = ({ merchantId, amount, at = LATER, by = OWNER }: { merchantId: string; amount?: Santim; at?: string; by?: string }): EscrowCommand => ({
  type: 'ReleaseFunds',
  data: { escrowId: ESCROW_ID, merchantId: by, releases: [{ merchantId, amount }], at },
});

export const cancelEscrow = ({ reason = 'customer changed their mind', at = LATER, by = OWNER }: { reason?: string; at?: string; by?: string } = {}): EscrowCommand => ({
  type: 'CancelEscrow',
  data: { escrowId: ESCROW_ID, merchantId: by, reason, at },
});

export const recordRefundFailure = (refundId: string, at = LATER): EscrowCommand => ({
  type: 'RecordRefundFailure',
  data: { refundId, reason: 'PROVIDER_DOWN', at },
});

export const completeRefund = (refundId: string, at = LATER): EscrowCommand => ({
  type: 'CompleteRefund',
  data: { refundId, externalReferenceId: `provider-${refundId}`, at },
});

// Events

export const escrowFunded = ({ ref = PAYMENT_REF, amount = AMOUNT, at = DURING_WINDOW } = {}): Extract<EscrowEvent, { type: 'EscrowFunded' }> => ({
  type: 'EscrowFunded',
  data: { externalReferenceId: ref, paymentType: 'telebirr', amount, paidAt: at },
});

export const escrowPaymentFailed = ({ ref = PAYMENT_REF, at = DURING_WINDOW } = {}): Extract<EscrowEvent, { type: 'EscrowPaymentFailed' }> => ({
  type: 'EscrowPaymentFailed',
  data: { externalReferenceId: ref, reason: 'INSUFFICIENT_BALANCE', failedAt: at },
});

export const escrowExpired = (): Extract<EscrowEvent, { type: 'EscrowExpired' }> => ({ type: 'EscrowExpired', data: { expiredAt: EXPIRES_AT } });

export const allocationReleased = ({ merchantId, amount, at = LATER }: { merchantId: string; amount: Santim; at?: string }): AllocationReleased => ({
  type: 'AllocationReleased',
  data: { merchantId, amount, releasedAt: at },
});

export const escrowCancelled = ({ reason = 'customer changed their mind', at = LATER }: { reason?: string; at?: string } = {}): EscrowCancelled => ({
  type: 'EscrowCancelled',
  data: { reason, cancelledAt: at },
});

export const paymentRefused = ({ ref, amount, reason, at }: { ref: string; amount: Santim; reason: string; at: string }): Extract<EscrowEvent, { type: 'EscrowPaymentRefused' }> => ({
  type: 'EscrowPaymentRefused',
  data: { externalReferenceId: ref, amount, reason, receivedAt: at },
});

export const refundRequested = ({
  n,
  amount,
  merchantIds = [],
  reason,
  ref = PAYMENT_REF,
  at,
}: {
  n: number;
  amount: Santim;
  merchantIds?: string[];
  reason: EscrowRefundRequest['reason'];
  ref?: string;
  at: string;
}): Extract<EscrowEvent, { type: 'EscrowRefundRequested' }> => ({
  type: 'EscrowRefundRequested',
  data: { refundId: refundId(n), amount, merchantIds, reason, paymentReferenceId: ref, requestedAt: at },
});

export const refundFailed = (id: string, at = LATER): Extract<EscrowEvent, { type: 'EscrowRefundFailed' }> => ({
  type: 'EscrowRefundFailed',
  data: { refundId: id, reason: 'PROVIDER_DOWN', failedAt: at },
});

export const refundCompleted = (id: string, at = LATER): Extract<EscrowEvent, { type: 'EscrowRefundCompleted' }> => ({
  type: 'EscrowRefundCompleted',
  data: { refundId: id, externalReferenceId: `provider-${id}`, completedAt: at },
});

/** Refund ids are derived from the stream: the n-th refund of the escrow. */
export const refundId = (n: number): string => `${ESCROW_ID}-refund-${n}`;
