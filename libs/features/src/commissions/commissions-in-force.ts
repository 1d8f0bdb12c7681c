import { type AppliedCommission, commissionDecider, type CommissionChanged, commissionFor, foldKept, streams } from '@app/domain';

/*
 * The rule each allocation pays the escrow's creator: read from the rules' streams, never a view, so a
 * rule set a moment ago applies to the next escrow at once. The caller reads the platform's default and
 * every possible payee's override in the read that resolves the payees (create-escrow.handler.ts), so
 * an escrow's cost stays flat in its payees, and keeps their histories between escrows (KeptHistories):
 * rules that did not change cost no events read, and are not folded again (foldKept).
 */

/** The rules' streams: the platform's default and each of these payees' overrides. */
export function commissionStreams(platformId: string, payeeIds: readonly string[]): string[] {
  return [platformId, ...payeeIds.filter((id) => id !== platformId)].map((key) => streams.commission(key));
}

/** Whether an allocation pays a rule: it names no fee (a named fee wins), and it is not the creator's own (a fee to itself is no fee). */
export function paysCommission(platformId: string, allocation: { merchantId: string; fee?: number }): boolean {
  return allocation.fee === undefined && allocation.merchantId !== platformId;
}

/**
 * The rule each allocation pays, in the request's order (its payees resolved), from histories holding
 * commissionStreams' streams for them: undefined where it pays none (paysCommission) or no rule applies.
 */
export function commissionsInForce(histories: ReadonlyMap<string, readonly unknown[]>, platformId: string, allocations: readonly { merchantId: string; fee?: number }[]): (AppliedCommission | undefined)[] {
  const rule = (key: string) => foldKept(commissionDecider, (histories.get(streams.commission(key)) ?? []) as unknown as CommissionChanged[]);
  const platform = rule(platformId);
  return allocations.map((a) => (paysCommission(platformId, a) ? commissionFor(platformId, platform, rule(a.merchantId)) : undefined));
}
