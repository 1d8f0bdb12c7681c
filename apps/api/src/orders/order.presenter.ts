import { subtractSantim, toEtbNumber, ZERO } from '@app/domain';
import type { PayableView } from '@app/read-models';

export function paymentUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl}/checkout/${encodeURIComponent(id)}`;
}

/** The spec's create response `data` for a plain order. */
export function presentCreatedOrder(order: PayableView, publicBaseUrl: string) {
  return {
    order_id: order.id,
    status: order.status,
    amount: toEtbNumber(order.amount),
    currency: order.currency,
    payment_url: paymentUrl(publicBaseUrl, order.id),
    expires_at: order.expiresAt,
    // What was kept of the request's addresses: a merchant sees at once that its callbacks will come.
    callback_url: order.callbackUrl ?? null,
    redirect_url: order.redirectUrl ?? null,
    testClockId: order.testClockId ?? null,
    metadata: { merchant_id: order.merchantId, customer_id: order.customer.id, description: order.description },
  };
}

/** The full status of a plain order, for its merchant. */
export function presentOrder(order: PayableView, publicBaseUrl: string, updatedAt: Date) {
  return {
    ...presentCreatedOrder(order, publicBaseUrl),
    description: order.description,
    customer_id: order.customer.id,
    customer_name: order.customer.name,
    customer_phone_number: order.customer.phone,
    customer_email: order.customer.email,
    items: order.items.map((item) => ({
      productId: item.productId,
      item_name: item.itemName,
      quantity: item.quantity,
      unit_price: toEtbNumber(item.unitPrice),
    })),
    external_reference_id: order.paymentReferenceId,
    refunded_amount: toEtbNumber(order.refunded ?? ZERO),
    // Gross, the platform's fee out of it, and what the merchant's payable received.
    fee: toEtbNumber(order.fee ?? ZERO),
    net: toEtbNumber(subtractSantim(order.amount, order.fee ?? ZERO)),
    metadata: order.metadata ?? {},
    created_at: order.createdAt,
    updated_at: updatedAt.toISOString(),
  };
}
