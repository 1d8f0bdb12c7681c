/** Stream names (STYLE.md): one stream per aggregate instance. */
export const streams = {
  escrow: (escrowId: string) => `escrow-${escrowId}`,
  order: (orderId: string) => `order-${orderId}`,
  merchant: (merchantId: string) => `merchant-${merchantId}`,
};
