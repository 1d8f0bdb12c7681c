import { type EscrowState, toEtbNumber } from '@app/domain';
import { paymentUrl } from '../orders/order.presenter';

function presentAllocations(state: EscrowState, withStatus: boolean) {
  return state.allocations.map((allocation) => ({
    merchantId: allocation.merchantId,
    amount: toEtbNumber(allocation.amount),
    ...(allocation.metadata ? { metadata: allocation.metadata } : {}),
    ...(withStatus ? { status: allocation.status } : {}),
  }));
}

/** The spec's create response `data` for an escrow. */
export function presentCreatedEscrow(state: EscrowState, publicBaseUrl: string) {
  const escrow = state.created!;
  return {
    escrowId: escrow.escrowId,
    orderId: escrow.orderId,
    amount: toEtbNumber(escrow.amount),
    currency: escrow.currency,
    status: state.status,
    paymentUrl: paymentUrl(publicBaseUrl, escrow.escrowId),
    allocations: presentAllocations(state, false),
    expiredAt: escrow.expiresAt,
  };
}

/** The payment status an escrow reports through verify (DESIGN §4). */
export function escrowPaymentStatus(state: EscrowState): string {
  switch (state.status) {
    case 'HELD':
    case 'PARTIALLY_RELEASED':
    case 'RELEASED':
    case 'REFUND_PENDING':
      return 'PAID';
    default:
      return state.status;
  }
}

export function presentEscrow(state: EscrowState, publicBaseUrl: string, updatedAt: Date) {
  const escrow = state.created!;
  return {
    ...presentCreatedEscrow(state, publicBaseUrl),
    paymentStatus: escrowPaymentStatus(state),
    allocations: presentAllocations(state, true),
    description: escrow.description,
    customerId: escrow.customer.id,
    customerName: escrow.customer.name,
    customerPhoneNumber: escrow.customer.phone,
    customerEmail: escrow.customer.email,
    items: escrow.items.map((item) => ({
      productId: item.productId,
      item_name: item.itemName,
      quantity: item.quantity,
      unit_price: toEtbNumber(item.unitPrice),
      image_url: item.imageUrl,
      stock_unit: item.stockUnit,
    })),
    callbackURL: escrow.callbackUrl,
    redirectUrl: escrow.redirectUrl,
    externalReferenceId: state.paymentReferenceId,
    metadata: escrow.metadata ?? {},
    createdAt: escrow.createdAt,
    updatedAt: updatedAt.toISOString(),
  };
}
