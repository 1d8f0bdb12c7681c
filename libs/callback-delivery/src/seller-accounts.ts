import { type CallbackMessage } from '@app/callbacks';
import { accountDecider, streamKind, streams } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { CommandRunner } from '@app/infrastructure';

/** What a callback to a seller account needs of it: its platform and its callbackURL, as its stream stands. */
export interface SellerAccount {
  platformId: string;
  callbackUrl?: string;
}

/** Past this many recipients what is kept is dropped and read again as needed: a bound on memory, not on staleness. */
const KEPT_RECIPIENTS = 10_000;

/**
 * The seller accounts a batch's messages are for, read from their own streams (small: an account's
 * details and reviews), never a view that may lag behind an update answered a moment ago. A recipient
 * is an account when its account stream says so; a merchant's is empty. What was read is kept: the
 * dispatcher hands every batch of the log to `follow` before dispatching it, and an event of an
 * account's stream drops what is kept of it, so a callback goes to the callbackURL the account has
 * once the log reaches the event dispatched (or later), as when every batch read the streams.
 */
export class SellerAccounts {
  /** By recipient: its account, or null for a merchant that is no account. */
  private readonly kept = new Map<string, SellerAccount | null>();

  constructor(private readonly runner: Pick<CommandRunner, 'read'>) {}

  /** Called with each batch of the log, in order, before anything in it is dispatched. */
  follow(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (streamKind(event.streamId) === 'account') this.kept.delete(event.streamId);
    }
  }

  /** Whether what is kept says `merchantId` has no callbackURL of its own (an account without one, or a merchant); false when nothing is kept. */
  keptWithoutCallbackUrl(merchantId: string): boolean {
    const account = this.kept.get(streams.account(merchantId));
    return account === null || (account !== undefined && account.callbackUrl === undefined);
  }

  async of(messages: readonly { message: CallbackMessage }[]): Promise<Map<string, SellerAccount>> {
    const ids = [...new Set(messages.map(({ message }) => message.merchantId))];
    if (this.kept.size > KEPT_RECIPIENTS) this.kept.clear();
    const missing = ids.filter((id) => !this.kept.has(streams.account(id)));
    await Promise.all(
      missing.map(async (accountId) => {
        const { account } = (await this.runner.read(streams.account(accountId), accountDecider)).state;
        this.kept.set(
          streams.account(accountId),
          account ? { platformId: account.merchantId, ...(account.callbackUrl !== undefined ? { callbackUrl: account.callbackUrl } : {}) } : null,
        );
      }),
    );
    const accounts = new Map<string, SellerAccount>();
    for (const id of ids) {
      const account = this.kept.get(streams.account(id));
      if (account) accounts.set(id, account);
    }
    return accounts;
  }
}

/** A message for a seller account that names no URL of its own (its share of an escrow, a transfer, a payout without a payout callback URL) goes to the account's callbackURL. */
export function addressedToAccount(message: CallbackMessage, accounts: ReadonlyMap<string, SellerAccount>): CallbackMessage {
  const url = message.url ?? accounts.get(message.merchantId)?.callbackUrl;
  return url === message.url ? message : { ...message, url };
}
