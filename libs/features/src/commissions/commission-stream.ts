import { AccountNotFound, type Principal, streams } from '@app/domain';
import type { PartyRelations } from '@app/onboarding';

/**
 * The stream of the rule a request names: the platform's default, or its override for `accountId`. An
 * override is for the platform's own sellers only: another platform's account, a linked merchant or an
 * id of nothing is, to it, an account that does not exist (404, as every route answers).
 */
export async function commissionStream(relations: PartyRelations, principal: Principal, platformId: string, accountId?: string): Promise<string> {
  if (accountId === undefined) return streams.commission(platformId);
  if ((await relations.relationOf(principal, accountId)).kind !== 'ownAccount') throw new AccountNotFound(accountId);
  return streams.commission(accountId);
}
