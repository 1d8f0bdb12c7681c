import type { OperationExamples } from '@app/http';

/** Webhook endpoints: two of the platform’s, one of them deleted, and one added. */

const ENDPOINT = {
  endpointId: 'we_56955317a422ec2096c89a6a',
  url: 'https://marketplace.example/callbacks',
  events: ['PAYOUT_PAID'],
  description: null,
  disabled: false,
  createdAt: '2026-11-28T05:17:19.823Z',
  updatedAt: '2026-11-28T05:17:19.823Z',
};
const DELETED_ENDPOINT_ID = 'we_0291ec43ae5824a348899772';

export const WEBHOOK_ENDPOINT_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/webhook-endpoints': {
    request: { url: 'https://marketplace.example/hooks', events: ['PAYOUT_PAID'] },
    data: {
      ...ENDPOINT,
      endpointId: 'we_fad531f9b7a77771bc860328',
      url: 'https://marketplace.example/hooks',
      createdAt: '2026-11-28T05:17:22.474Z',
      updatedAt: '2026-11-28T05:17:22.474Z',
      secret: 'whsec_n_J5rMrgC88bXqVWuV84-evrbAdLEjlDQpp3uAvH4YY',
    },
  },
  'GET /v1/trdp/webhook-endpoints': {
    data: {
      endpoints: [
        ENDPOINT,
        { ...ENDPOINT, endpointId: DELETED_ENDPOINT_ID, createdAt: '2026-11-28T05:17:19.850Z', updatedAt: '2026-11-28T05:17:19.850Z' },
      ],
      hasMore: false,
    },
  },
  'GET /v1/trdp/webhook-endpoints/{endpointId}': { data: ENDPOINT },
  'POST /v1/trdp/webhook-endpoints/{endpointId}': {
    request: { description: 'Payouts' },
    data: { ...ENDPOINT, description: 'Payouts', updatedAt: '2026-11-28T05:17:22.677Z' },
  },
  'DELETE /v1/trdp/webhook-endpoints/{endpointId}': { data: { endpointId: DELETED_ENDPOINT_ID, deleted: true } },
  'POST /v1/trdp/webhook-endpoints/{endpointId}/secret': { data: { endpointId: ENDPOINT.endpointId, secret: 'whsec_19L2qxWzGjlA8U04N1v4jWlT1ptaKah1C1BtC7IIJ-c' } },
  'POST /v1/trdp/webhook-endpoints/{endpointId}/test': { data: { endpointId: ENDPOINT.endpointId, testId: 'evt_test_dc078808f23b11d2d6d4959e' } },
};
