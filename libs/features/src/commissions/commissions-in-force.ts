import { type AppliedCommission, commissionDecider, type CommissionState, commissionFor, streams } from '@app/domain';
import type { CommandRunner } from '@app/infrastructure';

/**
 * The rule each allocation pays the escrow's creator, in the request's order: undefined where the
 * request names the fee (it wins), for the creator's own allocation (a fee to itself is no fee), or
 * where no rule applies. Read from the rules' streams, never a view: a rule set a moment ago applies
 * to the next escrow at once.
 */
export async function commissionsInForce(runner: CommandRunner, platformId: string, allocations: readonly { merchantId: string; fee?: number }[]): Promise<(AppliedCommission | undefined)[]> {
  const payees = [...new Set(allocations.filter((a) => a.fee === undefined && a.merchantId !== platformId).map((a) => a.merchantId))];
  if (payees.length === 0) return allocations.map(() => undefined);
  // One read for the platform's default and every payee's override: an escrow's cost stays flat in its payees.
  const rules = await runner.readMany([platformId, ...payees].map((key) => streams.commission(key)), commissionDecider);
  const [platform, ...overrides] = rules.map((rule): CommissionState => rule.state);
  const byPayee = new Map(payees.map((payee, i) => [payee, overrides[i]]));
  return allocations.map((a) => (byPayee.has(a.merchantId) ? commissionFor(platformId, platform, byPayee.get(a.merchantId)) : undefined));
}
