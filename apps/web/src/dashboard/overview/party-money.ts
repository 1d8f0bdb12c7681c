import type { SqlExecutor } from '@app/database';
import type { Clocks } from '@app/infrastructure';
import { merchantBalance, type MerchantBalance } from '@app/read-models';

/**
 * A merchant's or an account's balance as GET /v1/trdp/balance answers it: the same reader, now by the
 * party's own clock (a test clock's time for an account on one: docs/concepts/time.md), so a page and
 * the API agree to the santim. `now` is that instant, for what else the page reads of the party.
 */
export async function partyBalance(db: SqlExecutor, clocks: Clocks, party: string): Promise<{ balance: MerchantBalance; now: Date }> {
  const now = (await clocks.ofParty(party)).clock.now();
  return { balance: await merchantBalance(db, party, { now }), now };
}
