import { TestClockMismatch } from './test-clock.errors';

/**
 * The accounts an escrow pays run on the escrow's clock (its test clock, or the real time for both): what
 * each is credited is dated on the escrow's clock and held and paid out on the account's, so they must be
 * one (docs/concepts/time.md). Throws for the first account on another.
 */
export function refuseOtherClocks(escrowClock: string | undefined, accounts: readonly { accountId: string; testClockId?: string }[]): void {
  const other = accounts.find((account) => account.testClockId !== escrowClock);
  if (other) throw new TestClockMismatch(other.accountId, other.testClockId, escrowClock);
}
