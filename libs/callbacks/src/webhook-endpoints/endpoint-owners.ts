import type { CallbackMessage } from '../callback-payloads';

/**
 * Whose webhook endpoints a callback goes to: the one place that decides it. Today the merchant the
 * message is about; a platform's seller accounts would add the platform beside the account here.
 */
export function endpointOwners(message: Pick<CallbackMessage, 'merchantId'>): string[] {
  return [message.merchantId];
}
