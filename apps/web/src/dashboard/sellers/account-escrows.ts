import type { SqlExecutor } from '@app/database';
import { InvalidInput } from '@app/domain';
import { payableListPage, type PayableView } from '@app/read-models';

const PAGE_SIZE = 25;

/** A page of the escrows in which the account has an allocation (created by `createdBy` when given), its share only, newest first. */
export async function accountEscrows(
  db: SqlExecutor,
  accountId: string,
  options: { createdBy?: string; startingAfter?: string },
): Promise<{ escrows: PayableView[]; hasMore: boolean }> {
  const page = await payableListPage(db, {
    kind: 'escrow',
    scope: { allocatedTo: accountId, ...(options.createdBy ? { createdBy: options.createdBy } : {}) },
    limit: PAGE_SIZE,
    startingAfter: options.startingAfter || undefined,
  });
  if (!page) throw new InvalidInput('The page asked for starts after an escrow that is not in the list', 'UNKNOWN_CURSOR');
  return { escrows: page.payables.map((found) => found.view), hasMore: page.hasMore };
}
