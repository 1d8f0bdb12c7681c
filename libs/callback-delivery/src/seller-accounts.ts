import { type CallbackMessage } from '@app/callbacks';
import { accountDecider, streams } from '@app/domain';
import type { CommandRunner } from '@app/infrastructure';

/** What a callback to a seller account needs of it: its platform and its callbackURL, as its stream stands. */
export interface SellerAccount {
  platformId: string;
  callbackUrl?: string;
}

/**
 * The seller accounts a batch's messages are for, read from their own streams (small: an account's
 * details and reviews), never a view that may lag behind an update answered a moment ago: a callback
 * goes to the callbackURL the account has when it is dispatched. A recipient is an account when its
 * account stream says so; a merchant's is empty.
 */
export async function sellerAccountsOf(runner: Pick<CommandRunner, 'read'>, messages: readonly { message: CallbackMessage }[]): Promise<Map<string, SellerAccount>> {
  const ids = [...new Set(messages.map(({ message }) => message.merchantId))];
  const accounts = new Map<string, SellerAccount>();
  await Promise.all(
    ids.map(async (accountId) => {
      const { account } = (await runner.read(streams.account(accountId), accountDecider)).state;
      if (account) accounts.set(accountId, { platformId: account.merchantId, ...(account.callbackUrl !== undefined ? { callbackUrl: account.callbackUrl } : {}) });
    }),
  );
  return accounts;
}

/** A message for a seller account that names no URL of its own (its share of an escrow, a transfer, a payout without a payout callback URL) goes to the account's callbackURL. */
export function addressedToAccount(message: CallbackMessage, accounts: ReadonlyMap<string, SellerAccount>): CallbackMessage {
  const url = message.url ?? accounts.get(message.merchantId)?.callbackUrl;
  return url === message.url ? message : { ...message, url };
}
