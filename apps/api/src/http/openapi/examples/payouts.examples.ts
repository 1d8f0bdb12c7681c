import type { OperationExamples } from './operation-example';

/**
 * Payout destination, settings and payouts, the statement and the balance. Two payouts: one just
 * requested (later sent), and one sent to a changed destination whose report is shown.
 */

/** The platform's own destination: no seller account, so no legal name to match and no hold. */
const DESTINATION = { kind: 'wallet', institution: 'telebirr', holderName: 'Merkato Online', accountNumber: '••••3344', version: 1, holderNameMatches: null, warning: null, payoutsHeldUntil: null };

const SETTINGS = {
  version: 1,
  schedule: 'manual',
  hour: null,
  weekday: null,
  timeZone: 'Africa/Addis_Ababa',
  minimumAmount: 0.01,
  currency: 'ETB',
  callbackURL: 'https://marketplace.example/payout-callbacks',
  payoutDelayDays: 3,
  reservePercent: 10,
  reserveDays: 7,
  nextPayoutAt: null,
  pausedByPayoutId: null,
  paused: null,
};

const REQUESTED = {
  payoutId: 'po_e1a4a2555fbdd767cc607540',
  status: 'REQUESTED',
  amount: 250.74,
  currency: 'ETB',
  trigger: 'on-demand',
  destinationVersion: 1,
  movements: null,
  requestedAt: '2026-11-28T05:17:22.075Z',
  paidAt: null,
  failedAt: null,
  failureReason: null,
  providerReference: null,
  canceledAt: null,
};

const SENT = {
  ...REQUESTED,
  payoutId: 'po_2d3440848862a39aea3c309a',
  status: 'SENT',
  amount: 580.5,
  destinationVersion: 2,
  requestedAt: '2026-11-28T05:17:25.290Z',
};

export const PAYOUT_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/payout-destination': {
    request: { kind: 'wallet', institution: 'telebirr', accountNumber: '0911223344', holderName: 'Merkato Online' },
    data: DESTINATION,
  },
  'GET /v1/trdp/payout-destination': { data: DESTINATION },
  'POST /v1/trdp/payouts': { request: { amount: 250.74 }, data: REQUESTED },
  'POST /v1/trdp/payouts/{payoutId}/cancel': { data: { ...REQUESTED, status: 'CANCELED', canceledAt: '2026-11-28T05:17:23.410Z' } },
  'POST /v1/trdp/payouts/pause': { request: { reason: 'fraud review' }, data: { ...SETTINGS, paused: { reason: 'fraud review', pausedAt: '2026-11-28T06:00:00.000Z' } } },
  'POST /v1/trdp/payouts/resume': { data: SETTINGS },
  'GET /v1/trdp/payouts': { data: { payouts: [SENT, { ...REQUESTED, status: 'PAID', paidAt: '2026-11-28T05:19:02.511Z', providerReference: 'SBX-4C1D7E02A9B3F816' }], hasMore: true } },
  'GET /v1/trdp/payouts/{payoutId}': { data: SENT },
  'GET /v1/trdp/payouts/{payoutId}/movements': {
    data: {
      // The first page (limit=2) of the payout whose report follows: its lines, each with what the payout paid of it.
      movements: [
        { eventId: '5b0c2f7e-8f1a-4c11-9d0e-6a4f3c2b1a90', amount: 200, status: 'RELEASED', availableOn: '2026-11-27', paid: 200 },
        { eventId: '2ad87e8b-d18d-41b2-979d-19997c4c383a', amount: 600.5, status: 'PAID', availableOn: null, paid: 600.5 },
      ],
      hasMore: true,
    },
  },
  'GET /v1/trdp/payouts/{payoutId}/report': {
    data: {
      ...SENT,
      amount: 775.5,
      lines: [
        {
          eventId: '5b0c2f7e-8f1a-4c11-9d0e-6a4f3c2b1a90',
          type: 'OrderPaid',
          source: 'ord_9c1e6a0d2b7f4e3a8c5d1f0e2a4b6c8d',
          description: 'Order paid',
          recordedAt: '2026-11-25T09:12:03.118Z',
          gross: 200,
          fee: 0,
          net: 200,
          status: 'RELEASED',
          availableOn: '2026-11-27',
          paid: 200,
        },
        {
          eventId: '2ad87e8b-d18d-41b2-979d-19997c4c383a',
          type: 'AllocationReleased',
          source: 'esc_6f536c7c6b4dfc043350931969f402bb',
          description: 'Allocation of mer_2ef868dd3eaa4866d7a19e7d released',
          recordedAt: '2026-11-26T05:17:24.855Z',
          gross: 600.5,
          fee: 0,
          net: 600.5,
          status: 'PAID',
          availableOn: null,
          paid: 600.5,
        },
        {
          eventId: '2d6e1fa0-5143-420e-b2a4-aca7cfff1914',
          type: 'TransferCreated',
          source: 'tr_3787560e4f387dc38db5e94124097c3b',
          description: 'Transfer to acct_15ce3527c5b25b8263d4fa61b75c76a8: Delivery bonus',
          recordedAt: '2026-11-27T05:17:25.186Z',
          gross: -25,
          fee: 0,
          net: -25,
          status: 'PAID',
          availableOn: null,
          paid: -25,
        },
        {
          eventId: '8ef7f09a-6f88-4b81-8911-49135dbbf9a7',
          type: 'OrderPaid',
          source: 'ord_4d2a7c9e1b3f5a6c8e0d2f4a6b8c0e1d',
          description: 'Order paid',
          recordedAt: '2026-11-28T05:10:41.502Z',
          gross: 300,
          fee: 0,
          net: 300,
          status: 'HELD',
          availableOn: '2026-11-30',
          paid: 0,
        },
      ],
    },
  },
  'GET /v1/trdp/payouts/{payoutId}/report.csv': {
    response: 'event_id,type,source,description,recorded_at,gross,fee,net,status,available_on,paid\r\n5b0c2f7e-8f1a-4c11-9d0e-6a4f3c2b1a90,OrderPaid,ord_9c1e6a0d2b7f4e3a8c5d1f0e2a4b6c8d,Order paid,2026-11-25T09:12:03.118Z,200,0,200,RELEASED,2026-11-27,200\r\n2ad87e8b-d18d-41b2-979d-19997c4c383a,AllocationReleased,esc_6f536c7c6b4dfc043350931969f402bb,Allocation of mer_2ef868dd3eaa4866d7a19e7d released,2026-11-26T05:17:24.855Z,600.5,0,600.5,PAID,,600.5\r\n2d6e1fa0-5143-420e-b2a4-aca7cfff1914,TransferCreated,tr_3787560e4f387dc38db5e94124097c3b,Transfer to acct_15ce3527c5b25b8263d4fa61b75c76a8: Delivery bonus,2026-11-27T05:17:25.186Z,-25,0,-25,PAID,,-25\r\n8ef7f09a-6f88-4b81-8911-49135dbbf9a7,OrderPaid,ord_4d2a7c9e1b3f5a6c8e0d2f4a6b8c0e1d,Order paid,2026-11-28T05:10:41.502Z,300,0,300,HELD,2026-11-30,0\r\n',
  },
  'GET /v1/trdp/statement': {
    data: {
      from: '2026-01-01T00:00:00.000Z',
      to: '2031-01-01T00:00:00.000Z',
      currency: 'ETB',
      opening: 0,
      movements: [
        {
          eventId: '8d475828-a7b5-4c35-98d3-4d9a00ee5503',
          type: 'OrderPaid',
          source: 'ord_bc5734b64d13440bdca208797f197109',
          description: 'Order paid',
          recordedAt: '2026-11-28T05:17:19.545Z',
          amount: 250.75,
          gross: 250.75,
          fee: 0,
          recovered: 0,
          availableOn: '2026-12-01',
          reserve: 25.07,
          reserveAvailableOn: '2026-12-05',
          counterparty: null,
          sourceDescription: 'Coffee beans 1kg',
        },
        {
          eventId: '0f5cc987-e7cb-4b70-95ad-58efbf4dcf47',
          type: 'OrderRefundRequested',
          source: 'ord_bc5734b64d13440bdca208797f197109',
          description: 'Order refund requested',
          recordedAt: '2026-11-28T05:17:20.313Z',
          amount: -0.01,
          gross: -0.01,
          fee: 0,
          recovered: 0,
          availableOn: null,
          reserve: 0,
          reserveAvailableOn: null,
          counterparty: null,
          sourceDescription: 'Coffee beans 1kg',
        },
      ],
      closing: 0,
    },
  },
  'GET /v1/trdp/statement.csv': {
    response: 'recorded_at,event_id,type,source,description,available_on,amount,balance,recovered,gross,fee,counterparty,source_description,livemode,reserve,reserve_available_on\r\n2026-01-01T00:00:00.000Z,,OPENING,,Opening balance,,,0,,,,,,false,,\r\n2026-11-28T05:17:19.545Z,8d475828-a7b5-4c35-98d3-4d9a00ee5503,OrderPaid,ord_bc5734b64d13440bdca208797f197109,Order paid,2026-12-01,250.75,250.75,0,250.75,0,,Coffee beans 1kg,false,25.07,2026-12-05\r\n2026-11-28T05:17:20.313Z,0f5cc987-e7cb-4b70-95ad-58efbf4dcf47,OrderRefundRequested,ord_bc5734b64d13440bdca208797f197109,Order refund requested,,-0.01,250.74,0,-0.01,0,,Coffee beans 1kg,false,0,\r\n2031-01-01T00:00:00.000Z,,CLOSING,,Closing balance,,,250.74,,,,,,false,,\r\n',
  },
  'POST /v1/trdp/payout-settings': {
    request: { schedule: 'manual', minimumAmount: 0.01, callbackURL: 'https://marketplace.example/payout-callbacks', payoutDelayDays: 3, reservePercent: 10, reserveDays: 7 },
    data: { ...SETTINGS, previousAttributes: { payoutDelayDays: 0, reservePercent: 0, reserveDays: 0 } },
  },
  'GET /v1/trdp/payout-settings': { data: SETTINGS },
  'GET /v1/trdp/balance-transactions': {
    data: {
      balanceTransactions: [
        {
          eventId: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
          type: 'reversal',
          gross: -1200,
          fee: -120,
          net: -1080,
          recovered: 0,
          currency: 'ETB',
          availableOn: null,
          source: { type: 'escrow', id: 'esc_6f536c7c6b4dfc043350931969f402bb' },
          description: 'Allocation of acct_15ce3527c5b25b8263d4fa61b75c76a8 reversed',
          counterparty: 'Merkato Online',
          sourceDescription: 'Coffee beans 1kg, Jebena',
          createdAt: '2026-11-28T08:02:11.410Z',
        },
        {
          eventId: '2ad87e8b-d18d-41b2-979d-19997c4c383a',
          type: 'release',
          gross: 1200,
          fee: 120,
          net: 1080,
          recovered: 0,
          currency: 'ETB',
          availableOn: '2026-11-30',
          source: { type: 'escrow', id: 'esc_6f536c7c6b4dfc043350931969f402bb' },
          description: 'Allocation of acct_15ce3527c5b25b8263d4fa61b75c76a8 released, fee to mer_2ef868dd3eaa4866d7a19e7d',
          counterparty: 'Merkato Online',
          sourceDescription: 'Coffee beans 1kg, Jebena',
          createdAt: '2026-11-26T05:17:24.855Z',
        },
      ],
      hasMore: true,
    },
  },
  'GET /v1/trdp/balance': {
    data: {
      asOf: '2026-11-28T05:17:23.223Z',
      currency: 'ETB',
      available: 30,
      onHold: 225.68,
      onHoldByDay: [{ availableOn: '2026-12-01', amount: 225.68 }],
      reserve: 25.07,
      reserveByDay: [{ availableOn: '2026-12-05', amount: 25.07 }],
      pending: 0,
      frozen: 0,
      inTransit: 0,
      feesEarned: 30,
    },
  },
};
