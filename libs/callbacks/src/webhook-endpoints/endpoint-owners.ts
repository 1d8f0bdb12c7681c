import type { CallbackMessage } from '../callback-payloads';

/**
 * Whose webhook endpoints a callback goes to: the one place that decides it. The one the message is
 * for (a merchant, or a platform's seller account: an endpoint made acting for the account is the
 * account's) and, for a message about an account alone (its payout), the platform that owns it.
 * `platformOf` is that platform when the message is for an account.
 */
export function endpointOwners(message: Pick<CallbackMessage, 'merchantId' | 'reachesPlatform'>, platformOf?: string): string[] {
  return message.reachesPlatform && platformOf !== undefined ? [message.merchantId, platformOf] : [message.merchantId];
}
