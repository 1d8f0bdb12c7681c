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
  const read = async (key: string): Promise<CommissionState> => (await runner.read(streams.commission(key), commissionDecider)).state;
  const [platform, ...overrides] = await Promise.all([read(platformId), ...payees.map(read)]);
  const byPayee = new Map(payees.map((payee, i) => [payee, overrides[i]]));
  return allocations.map((a) => (byPayee.has(a.merchantId) ? commissionFor(platformId, platform, byPayee.get(a.merchantId)) : undefined));
}
