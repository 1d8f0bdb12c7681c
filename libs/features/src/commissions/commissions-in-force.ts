import { type AppliedCommission, commissionDecider, type CommissionChanged, commissionFor, fold, streams } from '@app/domain';
import type { KeptHistories } from '@app/event-store';

/**
 * The rule each allocation pays the escrow's creator, in the request's order: undefined where the
 * request names the fee (it wins), for the creator's own allocation (a fee to itself is no fee), or
 * where no rule applies. Read from the rules' streams, never a view: a rule set a moment ago applies
 * to the next escrow at once. `rules` keeps their histories between escrows and reads only what
 * followed them, so rules that did not change cost no events read.
 */
export async function commissionsInForce(rules: Pick<KeptHistories, 'read'>, platformId: string, allocations: readonly { merchantId: string; fee?: number }[]): Promise<(AppliedCommission | undefined)[]> {
  const payees = [...new Set(allocations.filter((a) => a.fee === undefined && a.merchantId !== platformId).map((a) => a.merchantId))];
  if (payees.length === 0) return allocations.map(() => undefined);
  // One read for the platform's default and every payee's override: an escrow's cost stays flat in its payees.
  const streamIds = [platformId, ...payees].map((key) => streams.commission(key));
  const histories = await rules.read(streamIds);
  const [platform, ...overrides] = streamIds.map((streamId) => fold(commissionDecider, (histories.get(streamId) ?? []) as unknown as CommissionChanged[]));
  const byPayee = new Map(payees.map((payee, i) => [payee, overrides[i]]));
  return allocations.map((a) => (byPayee.has(a.merchantId) ? commissionFor(platformId, platform, byPayee.get(a.merchantId)) : undefined));
}
