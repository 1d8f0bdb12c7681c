import { subtractSantim, toEtbNumber, ZERO } from '@app/domain';
import type { PayableView } from '@app/read-models';
import { paymentUrl } from '../orders/order.presenter';
import { presentAppliedCommission } from '@app/features/commissions';

/**
 * `sentAs`: the request's merchantIds, in its order, which the create answer echoes (the interface:
 * "echo of the request"); `accountId` is whom each allocation is kept and paid under, the id every
 * later answer names it by.
 */
function presentAllocations(escrow: PayableView, withStatus: boolean, sentAs?: readonly string[]) {
  return (escrow.allocations ?? []).map((allocation, i) => ({
    merchantId: sentAs?.[i] ?? allocation.merchantId,
    accountId: allocation.merchantId,
    amount: toEtbNumber(allocation.amount),
    fee: toEtbNumber(allocation.fee),
    commission: presentAppliedCommission(allocation.commission),
    ...(allocation.metadata ? { metadata: allocation.metadata } : {}),
    ...(withStatus
      ? {
          status: allocation.status,
          held: toEtbNumber(allocation.held),
          released: toEtbNumber(allocation.released),
          refunded: toEtbNumber(allocation.refunded),
          feeEarned: toEtbNumber(allocation.feeEarned),
          frozen: toEtbNumber(allocation.frozen),
          reversed: toEtbNumber(allocation.reversed ?? ZERO),
          feeReturned: toEtbNumber(allocation.feeReturned ?? ZERO),
          ...(allocation.dispute ? { dispute: allocation.dispute } : {}),
        }
      : {}),
  }));
}

/** An escrow's releases, oldest first: what `GET /v1/trdp/escrow/{id}/releases` answers. */
export function presentReleases(escrow: PayableView) {
  return {
    escrowId: escrow.id,
    orderId: escrow.merchantOrderId,
    releases: (escrow.releases ?? []).map((release) => ({
      merchantId: release.merchantId,
      amount: toEtbNumber(release.amount),
      fee: toEtbNumber(release.fee),
      net: toEtbNumber(subtractSantim(release.amount, release.fee)),
      releasedAt: release.releasedAt,
      automatic: release.automatic === true,
    })),
  };
}

/**
 * The spec's create response `data` for an escrow; `sentAs`, the request's allocation merchantIds,
 * echoed as sent (an identical retry sends the same ones, or it is a conflict).
 */
export function presentCreatedEscrow(escrow: PayableView, publicBaseUrl: string, sentAs?: readonly string[]) {
  return {
    escrowId: escrow.id,
    orderId: escrow.merchantOrderId,
    amount: toEtbNumber(escrow.amount),
    currency: escrow.currency,
    status: escrow.status,
    paymentUrl: paymentUrl(publicBaseUrl, escrow.id),
    allocations: presentAllocations(escrow, false, sentAs),
    expiredAt: escrow.expiresAt,
    // What was kept of the request's addresses: a merchant sees at once that its callbacks will come.
    callbackURL: escrow.callbackUrl ?? null,
    redirectUrl: escrow.redirectUrl ?? null,
    testClockId: escrow.testClockId ?? null,
  };
}

export function presentEscrow(escrow: PayableView, publicBaseUrl: string, updatedAt: Date) {
  return {
    ...presentCreatedEscrow(escrow, publicBaseUrl),
    paymentStatus: escrow.paymentStatus,
    allocations: presentAllocations(escrow, true),
    autoReleaseAt: escrow.autoReleaseAt ?? null,
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
    externalReferenceId: escrow.paymentReferenceId,
    metadata: escrow.metadata ?? {},
    createdAt: escrow.createdAt,
    updatedAt: updatedAt.toISOString(),
  };
}
