import { AccountIsClosed } from '../account/account-closing';
import { refundRequest } from '../payment/payment.decider';
import { feeShare } from '../shared/fees';
import { addSantim, formatEtb, type Santim, subtractSantim, ZERO } from '../shared/money';
import type { EscrowCommandData } from './escrow.commands';
import type { EscrowEvent } from './escrow.events';
import { AllocationNotFound, AmountExceedsReversible, NothingToReverse } from './escrow.errors';
import { owned } from './escrow.guards';
import { type AllocationState, type EscrowState, reversibleAmount } from './escrow.state';

/**
 * The fee the creator gives back with a reversal of `amount`: the fee's share of all it has given
 * back fees for, after this one, less before (feeShare's rounding, libs/domain/src/shared/fees.ts), so the parts add up to at most the
 * fee earned on what was released, and no santim is created or lost however the reversals split.
 */
function feeReturnedBy(allocation: AllocationState, amount: Santim): Santim {
  const before = allocation.feeReturnBasis;
  const after = addSantim(before, amount);
  return subtractSantim(feeShare(allocation.fee, allocation.amount, after), feeShare(allocation.fee, allocation.amount, before));
}

/**
 * A return after release: money already released to an allocation's merchant goes back to the
 * customer through the provider, as a refund like any other, and is taken back from that merchant's
 * payable (its balance may go below zero: the customer is paid back whatever the merchant holds),
 * unless the merchant is a closed account, which gives back only what it still has available.
 */
export function decideReversal(data: EscrowCommandData<'ReverseAllocation'>, state: EscrowState): EscrowEvent[] {
  owned(state, data);
  const allocation = state.allocations.find((a) => a.merchantId === data.allocation);
  if (!allocation) throw new AllocationNotFound(data.allocation);
  const reversible = reversibleAmount(allocation);
  if (reversible === 0) throw new NothingToReverse(data.allocation);
  if (data.amount !== undefined && data.amount > reversible) throw new AmountExceedsReversible(data.allocation, formatEtb(data.amount), formatEtb(reversible));
  const amount = data.amount ?? reversible;
  // Written even when it rounds to nothing: what was reversed with the fee given back is the basis of the next share.
  const feeReturned = data.refundFee ? feeReturnedBy(allocation, amount) : undefined;
  // A closed account gives what it still holds and no more: a debt it took on could never be repaid, as nothing is paid to it any more.
  if (data.payeeClosed && data.payeeClosed.available - subtractSantim(amount, feeReturned ?? ZERO) < 0) throw new AccountIsClosed(data.allocation);
  return [
    {
      type: 'EscrowRefundRequested',
      data: {
        ...refundRequest(state.payment!, amount, data.at),
        merchantIds: [data.allocation],
        reason: 'REVERSED',
        allocations: [{ merchantId: data.allocation, amount }],
        note: data.reason,
        ...(feeReturned !== undefined ? { feeReturned } : {}),
      },
    },
  ];
}
