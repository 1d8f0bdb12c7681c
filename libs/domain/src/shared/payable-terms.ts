import type { Santim } from './money';

export interface Customer {
  id: string;
  name: string;
  phone: string;
  email?: string;
}

export interface Item {
  productId?: string;
  itemName: string;
  quantity: number;
  unitPrice: Santim;
  imageUrl?: string;
  stockUnit?: string;
}

/** What an order and an escrow are both created with: someone to pay what, to whom, until when. */
export interface PayableTerms {
  merchantId: string;
  amount: Santim;
  currency: 'ETB';
  customer: Customer;
  items: Item[];
  description?: string;
  callbackUrl?: string;
  redirectUrl?: string;
  metadata?: Record<string, unknown>;
  expiresAt: string;
  createdAt: string;
  /** The test clock it is attached to for life (docs/concepts/time.md); none: it runs on the real time. */
  testClockId?: string;
}
