import type { Santim } from '@app/domain';

/** DESIGN §7 accounts. */
export const ACCOUNTS = {
  providerClearing: 'provider:clearing',
  customerRefunds: 'customer:refunds',
  escrow: (escrowId: string) => `escrow:${escrowId}`,
  merchantPayable: (merchantId: string) => `merchant:${merchantId}:payable`,
};

export interface JournalLine {
  account: string;
  debit: Santim | 0;
  credit: Santim | 0;
}

export interface JournalEntry {
  description: string;
  lines: JournalLine[];
}

/** Money the provider holds for us is an asset (debit-normal); everything we owe is credit-normal. */
export function isDebitNormal(account: string): boolean {
  return account.startsWith('provider:');
}

const transfer = (description: string, debit: string, credit: string, amount: Santim): JournalEntry => ({
  description,
  lines: [
    { account: debit, debit: amount, credit: 0 },
    { account: credit, debit: 0, credit: amount },
  ],
});

export interface LedgerContext {
  /** Our order or escrow id, from the stream. */
  id: string;
  /** The merchant of a plain order (its payable account receives the payment). */
  orderMerchantId?: string;
}

/** The journal entry a money event calls for (double-entry, integer santim), or none. */
export function journalFor(type: string, data: Record<string, unknown>, context: LedgerContext): JournalEntry | undefined {
  const amount = data.amount as Santim;
  switch (type) {
    case 'OrderPaid':
      return transfer('Order paid', ACCOUNTS.providerClearing, ACCOUNTS.merchantPayable(context.orderMerchantId ?? 'unknown'), amount);
    case 'EscrowFunded':
      return transfer('Escrow funded', ACCOUNTS.providerClearing, ACCOUNTS.escrow(context.id), amount);
    case 'AllocationReleased':
      return transfer(`Allocation of ${String(data.merchantId)} released`, ACCOUNTS.escrow(context.id), ACCOUNTS.merchantPayable(String(data.merchantId)), amount);
    case 'EscrowRefundRequested':
      // A refused payment never reached the escrow: what is owed back comes straight from clearing.
      return data.reason === 'CANCELLED'
        ? transfer('Escrow refund requested', ACCOUNTS.escrow(context.id), ACCOUNTS.customerRefunds, amount)
        : transfer('Refused payment to refund', ACCOUNTS.providerClearing, ACCOUNTS.customerRefunds, amount);
    case 'OrderRefundRequested':
      return transfer('Refused payment to refund', ACCOUNTS.providerClearing, ACCOUNTS.customerRefunds, amount);
    default:
      return undefined;
  }
}

/** Refund completions carry no amount: it is the amount of the refund they complete. */
export function refundCompletionEntry(amount: Santim): JournalEntry {
  return transfer('Refund paid out', ACCOUNTS.customerRefunds, ACCOUNTS.providerClearing, amount);
}
