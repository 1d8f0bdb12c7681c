import { isAccountId } from '@app/domain';
import type { CallbackMessage, SourceEvent } from '../callback-payloads';

/**
 * Whose webhook endpoints a callback goes to: the one place that decides it. The one the message is
 * for (a merchant, or a platform's seller account: an endpoint made acting for the account is the
 * account's) and, for a message about an account alone (its payout, its payout settings), the platform that owns it.
 * `platformOf` is that platform when the message is for an account.
 */
export function endpointOwners(message: Pick<CallbackMessage, 'merchantId' | 'reachesPlatform'>, platformOf?: string): string[] {
  return message.reachesPlatform && platformOf !== undefined ? [message.merchantId, platformOf] : [message.merchantId];
}

const ABOUT_AN_ACCOUNT_ALONE: ReadonlySet<string> = new Set(['PayoutPaid', 'PayoutFailed', 'PayoutCanceled', 'PayoutSettingsChanged', 'PayoutsPaused', 'PayoutsResumed']);

/**
 * The seller account a source event tells of alone (its payout's outcome or cancellation, a change of its payout settings, a pause of its payouts), whose platform its message
 * also reaches (`reachesPlatform`); undefined for any other event. The event names the account, not
 * its platform: the account's stream says which that is.
 */
export function accountReachingPlatform(event: Pick<SourceEvent, 'type' | 'data'>): string | undefined {
  if (!ABOUT_AN_ACCOUNT_ALONE.has(event.type)) return undefined;
  const { merchantId } = event.data as { merchantId: string };
  return isAccountId(merchantId) ? merchantId : undefined;
}
