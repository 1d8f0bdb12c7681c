'use strict';
/** Request bodies shared by our side and the references, so both carry the same bytes. */

/** The sellers by the marketplace's references (its accounts: registerMarketplace in bench/lib/service.js). */
const ALLOCATIONS = [
  { merchantId: 'seller-1', amount: 600.5, metadata: { merchantName: 'Seller One', purpose: 'goods' } },
  { merchantId: 'seller-2', amount: 250, metadata: { merchantName: 'Seller Two', purpose: 'goods' } },
  { merchantId: 'courier-1', amount: 150, metadata: { merchantName: 'Courier', purpose: 'delivery' } },
];

/** An escrow of 3 allocations, as a marketplace would send it. */
function escrowBody(orderId, callbackURL) {
  return {
    orderId,
    amount: 1000.5,
    currency: 'ETB',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '0911234567',
    customerEmail: 'abebe@example.com',
    description: 'Marketplace order',
    items: [
      { productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 2, unit_price: 300.25, stock_unit: 'kg' },
      { productId: 'sku-2', item_name: 'Delivery', quantity: 1, unit_price: 400 },
    ],
    allocations: ALLOCATIONS,
    ...(callbackURL ? { callbackURL } : {}),
    redirectUrl: 'https://merchant.example/thanks',
    metadata: { cartId: 'c-1' },
  };
}

module.exports = { ALLOCATIONS, escrowBody };
