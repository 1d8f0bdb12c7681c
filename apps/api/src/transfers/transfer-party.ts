import type { SqlExecutor } from '@app/database';
import { isAccountId } from '@app/domain';
import { merchantName, ownedAccount } from '@app/read-models';
import { UnknownTransferParty } from './transfers.errors';

/**
 * Who may be the other party of a caller's transfer: one of its own accounts (its sellers), or another
 * registered merchant (a marketplace whose sellers were registered as merchants before accounts
 * existed); never the caller itself, nor another platform's account. The one place that decides.
 */
export async function assertTransferParty(db: SqlExecutor, callerId: string, party: string): Promise<void> {
  if (party === callerId) throw new UnknownTransferParty(party);
  const known = isAccountId(party) ? (await ownedAccount(db, callerId, party)) !== undefined : (await merchantName(db, party)) !== undefined;
  if (!known) throw new UnknownTransferParty(party);
}
