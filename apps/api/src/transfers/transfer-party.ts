import type { SqlExecutor } from '@app/database';
import { merchantName } from '@app/read-models';
import { UnknownTransferParty } from './transfers.errors';

/**
 * Who may be the other party of a caller's transfer: for now any registered merchant but the caller
 * itself. The one place that decides: once a platform has accounts of its own (docs/guides/returns-transfers-and-balances.md),
 * this becomes "one of the caller's accounts".
 */
export async function assertTransferParty(db: SqlExecutor, callerId: string, party: string): Promise<void> {
  if (party === callerId || (await merchantName(db, party)) === undefined) throw new UnknownTransferParty(party);
}
