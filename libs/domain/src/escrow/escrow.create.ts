import { commissionFee } from '../commission/commission-rule';
import { formatEtb, sumSantim } from '../shared/money';
import { assertCurrency } from '../shared/order-terms';
import type { EscrowCommandData } from './escrow.commands';
import type { AllocationTerms, EscrowEvent } from './escrow.events';
import { AllocationSumMismatch, AutoReleaseBeforeExpiry, AutoReleaseConflict, EscrowOrderConflict, FeeExceedsAmount } from './escrow.errors';
import { assertAhead, assertDistinct } from './escrow.guards';
import type { EscrowState } from './escrow.state';

/** Bad input gets the same answer on a first request and on a retry, so it is judged before the history. */
export function decideCreate(data: EscrowCommandData<'CreateEscrow'>, state: EscrowState): EscrowEvent[] {
  assertCurrency(data.currency);
  assertDistinct(data.allocations);
  for (const allocation of data.allocations) {
    if (allocation.fee !== undefined && allocation.fee > allocation.amount) throw new FeeExceedsAmount(allocation.merchantId);
  }
  const total = sumSantim(data.allocations.map((a) => a.amount));
  if (total !== data.amount) throw new AllocationSumMismatch(formatEtb(data.amount), formatEtb(total));
  if (data.autoReleaseAt !== undefined) {
    if (data.releaseAfterDays !== undefined) throw new AutoReleaseConflict();
    if (Date.parse(data.autoReleaseAt) <= Date.parse(data.expiresAt)) throw new AutoReleaseBeforeExpiry();
    assertAhead(data.autoReleaseAt, data.createdAt);
  }
  if (state.created) {
    // The escrow's id derives from the merchant's orderId: the same request again is answered with the escrow it made.
    if (state.created.requestFingerprint === data.requestFingerprint) return [];
    throw new EscrowOrderConflict(data.orderId);
  }
  return [{ type: 'EscrowCreated', data: { ...data, allocations: data.allocations.map(withCommissionFee) } }];
}

/**
 * A fee the request names wins; otherwise the rule in force computes it, once, here: the event keeps the
 * fee with the rule that made it, so a later change of the rule never changes this escrow's fees.
 */
function withCommissionFee(allocation: AllocationTerms): AllocationTerms {
  const { commission, ...terms } = allocation;
  if (!commission || terms.fee !== undefined) return terms;
  return { ...terms, fee: commissionFee(commission.rule, terms.amount), commission };
}
