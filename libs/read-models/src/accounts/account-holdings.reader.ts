import type { SqlExecutor } from '@app/database';
import type { AccountHoldings } from '@app/domain';
import { merchantBalance } from '../ledger/balance.reader';
import { totalHeld } from '../ledger/payable-availability.reader';

/**
 * The escrows in which the account has an allocation not yet settled: one whose escrow is still unpaid (a
 * payment may yet come), or whose allocation still holds or freezes money (allocation_holdings' current rows).
 */
const OPEN_ALLOCATIONS = `
  SELECT count(*)::int AS open FROM escrow_allocations a
  WHERE a.merchant_id = $1
    AND (a.status = 'PENDING'
      OR EXISTS (SELECT 1 FROM allocation_holdings h WHERE h.merchant_id = a.merchant_id AND h.escrow_id = a.escrow_id AND h.valid_to IS NULL AND (h.held > 0 OR h.frozen > 0)))`;

/** What an account still holds at `now` (its test clock's time, for what the holding period keeps): what a closing must find nothing of. */
export async function accountHoldings(db: SqlExecutor, accountId: string, now: Date): Promise<AccountHoldings> {
  const [balance, [{ open }]] = await Promise.all([merchantBalance(db, accountId, { now }), db.query<{ open: number }>(OPEN_ALLOCATIONS, [accountId])]);
  return { available: balance.available, onHold: totalHeld(balance.held), inTransit: balance.inTransit, openAllocations: open };
}
