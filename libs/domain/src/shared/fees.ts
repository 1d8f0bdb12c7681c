import type { Santim } from './money';
import { ZERO } from './money';

/**
 * The platform fee's share of `part` of a fee-bearing `amount`: fee × part ÷ amount, rounded down to
 * the santim. Each movement of money takes the difference between this share after it and before
 * it, so the fee parts of any split add up to this share, never more than the fee, and to all of it
 * once `part` is the whole amount: no santim is created or lost, whatever the split. Exact in
 * integers (BigInt: fee × part can pass 2^53).
 */
export function feeShare(fee: Santim | undefined, amount: Santim, part: Santim): Santim {
  if (!fee) return ZERO;
  return Number((BigInt(fee) * BigInt(part)) / BigInt(amount)) as Santim;
}
