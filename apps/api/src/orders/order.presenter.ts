import { type OrderState, toEtbNumber } from '@app/domain';

export function paymentUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl}/checkout/${encodeURIComponent(id)}`;
}

/** The spec's create response `data` for a plain order. */
export function presentCreatedOrder(state: OrderState, publicBaseUrl: string) {
  const order = state.created!;
  return {
    order_id: order.orderId,
    status: state.status,
    amount: toEtbNumber(order.amount),
    currency: order.currency,
    payment_url: paymentUrl(publicBaseUrl, order.orderId),
    expires_at: order.expiresAt,
    metadata: { merchant_id: order.merchantId, customer_id: order.customer.id, description: order.description },
  };
}

/** The full status of a plain order, for its merchant. */
export function presentOrder(state: OrderState, publicBaseUrl: string, updatedAt: Date) {
  const order = state.created!;
  return {
    ...presentCreatedOrder(state, publicBaseUrl),
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
    callback_url: order.callbackUrl,
    redirect_url: order.redirectUrl,
    external_reference_id: state.paymentReferenceId,
    metadata: order.metadata ?? {},
    created_at: order.createdAt,
    updated_at: updatedAt.toISOString(),
  };
}
