import type { CallbackMessage, SourceEvent } from '../callback-message';

/**
 * Whose webhook endpoints a callback goes to: the one place that decides it. The one the message is
 * for (a merchant, or a platform's seller account: an endpoint made acting for the account is the
 * account's) and, for a message about one party alone (its payout, its payout settings), the platform
 * that owns it when it is an account. `platformOf` is that platform, read from the account's stream
 * (undefined for a merchant).
 */
export function endpointOwners(message: Pick<CallbackMessage, 'merchantId' | 'reachesPlatform'>, platformOf?: string): string[] {
  return message.reachesPlatform && platformOf !== undefined ? [message.merchantId, platformOf] : [message.merchantId];
}

const ABOUT_AN_ACCOUNT_ALONE: ReadonlySet<string> = new Set(['PayoutPaid', 'PayoutFailed', 'PayoutCanceled', 'PayoutSettingsChanged', 'PayoutsPaused', 'PayoutsResumed']);

/**
 * The party a source event tells of alone (its payout's outcome or cancellation, a change of its payout
 * settings, a pause of its payouts), whose message also reaches its platform when it is a seller account
 * (`reachesPlatform`); undefined for any other event. The event names the party, not its platform: the
 * party's account stream says whether it is an account and whose (a merchant has none), never its id's shape.
 */
export function partyReachingPlatform(event: Pick<SourceEvent, 'type' | 'data'>): string | undefined {
  if (!ABOUT_AN_ACCOUNT_ALONE.has(event.type)) return undefined;
  return (event.data as { merchantId: string }).merchantId;
}
