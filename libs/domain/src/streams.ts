/** Stream names (STYLE.md): one stream per aggregate instance. */
export const streams = {
  escrow: (escrowId: string) => `escrow-${escrowId}`,
  order: (orderId: string) => `order-${orderId}`,
  merchant: (merchantId: string) => `merchant-${merchantId}`,
  auditor: (auditorId: string) => `auditor-${auditorId}`,
  callback: (deliveryId: string) => `callback-${deliveryId}`,
  /** A merchant's payout account: its destination and every payout (and its settings, before they had a stream of their own). */
  payouts: (merchantId: string) => `payouts-${merchantId}`,
  /** A merchant's payout settings, as versions. */
  payoutSettings: (merchantId: string) => `payout-settings-${merchantId}`,
  /** One run of a provider statement's reconciliation. */
  reconciliation: (runId: string) => `reconciliation-${runId}`,
};

/** What a stream's name can be: one of ours, followed by an id of letters, digits and underscores. */
const STREAM_ID = /^(?:escrow|order|merchant|auditor|callback|payouts|payout-settings|reconciliation)-[A-Za-z0-9_]{1,100}$/;

export function isStreamId(value: string): boolean {
  return STREAM_ID.test(value);
}
