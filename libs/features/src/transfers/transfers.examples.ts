import type { OperationExamples } from '@app/http';

/** Transfers between a platform, its accounts and other merchants: a delivery bonus to a courier (named by its reference) for an escrow, partly taken back. */

const TRANSFER_ID = 'tr_3787560e4f387dc38db5e94124097c3b';
const PLATFORM = 'mer_2ef868dd3eaa4866d7a19e7d';
const COURIER = 'acct_7d1e0c2b9a4f4e6b8c3d2a1f0e9d8c7b';
const ESCROW = 'esc_9b2c41d07e5f4a3b8c6d1e2f3a4b5c6d';

const TRANSFER = {
  transferId: TRANSFER_ID,
  direction: 'to',
  counterparty: COURIER,
  source: PLATFORM,
  destination: COURIER,
  amount: 25,
  reversed: 0,
  reversible: 25,
  currency: 'ETB',
  description: 'Delivery bonus for order 1001',
  metadata: { orderId: 'order-1001' },
  escrowId: ESCROW,
  orderId: null,
  allowNegative: false,
  reversals: [],
  createdAt: '2026-11-26T10:00:00.000Z',
};

const REVERSAL = { reversalId: `${TRANSFER_ID}-reversal-1`, amount: 5, reversedAt: '2026-11-26T11:00:00.000Z' };

export const TRANSFER_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/transfers': {
    request: { to: 'courier-1', amount: 25, description: 'Delivery bonus for order 1001', metadata: { orderId: 'order-1001' }, escrowId: ESCROW },
    data: TRANSFER,
  },
  'GET /v1/trdp/transfers': { data: { transfers: [TRANSFER], hasMore: false } },
  'POST /v1/trdp/transfers/{transferId}/reversals': {
    request: { amount: 5 },
    data: { ...REVERSAL, transferId: TRANSFER_ID, reversed: 5, reversible: 20 },
  },
  'GET /v1/trdp/transfers/{transferId}': { data: { ...TRANSFER, reversed: 5, reversible: 20, reversals: [REVERSAL] } },
};
