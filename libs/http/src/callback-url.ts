import { refusedWebhookUrl } from '@app/callback-delivery';
import { CallbackUrlRefused } from '@app/callbacks';
import type { AppConfig } from '@app/config';

/**
 * A callbackURL (of an order, an escrow, an account or the payout settings), when it is set anew,
 * follows the webhook endpoints' address rules (address-guard.ts): a private, loopback or link-local
 * address, or one with credentials, is refused at once rather than at every delivery
 * (CALLBACK_ALLOW_PRIVATE_URLS allows local receivers in development; every delivery still checks the
 * address it connects to). One already in force is not judged again.
 */
export function refuseNewCallbackUrl(url: string | null | undefined, inForce: string | null | undefined, config: Pick<AppConfig, 'callbackAllowPrivateUrls'>): void {
  if (!url || url === inForce) return;
  const refused = refusedWebhookUrl(url, config.callbackAllowPrivateUrls);
  if (refused) throw new CallbackUrlRefused(refused);
}
