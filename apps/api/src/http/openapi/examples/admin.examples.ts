import type { OperationExamples } from './operation-example';

/** The staff API (admin key) and the health checks. */
export const ADMIN_EXAMPLES: OperationExamples = {
  'POST /v1/admin/merchants': {
    request: { name: 'Merkato Online' },
    data: {
      merchantId: 'mer_d2e69ca6f59255a3e4e9e065',
      apiSecret: 'sk_sYFg1IZrjDsQjda5i9L_5By-8C6LJ2lq6nA9TM47zyc',
      webhookSecret: 'whsec_hsyeX3edxFpWFrKdjT1xa8wvj1j24zAFLOzEby9GhtI',
    },
  },
  'POST /v1/admin/merchants/{merchantId}/invitation': {
    request: { email: 'owner@merkato.example' },
    data: {
      merchantId: 'mer_01786931b08c21d98a720569',
      invitationUrl: 'http://localhost:3000/dashboard/invitation#inv_iJ-ULBj494rVMzswA_-HKjXc7ipQ5fQs2sbLsL6XKXA',
    },
  },
  'POST /v1/admin/auditors': {
    request: { name: 'Finance Auditor' },
    data: { auditorId: 'aud_4cb086378bc32784738d8671', auditorKey: 'ak_y9TTikvLYhPG0keLwbObz8pMvriDRznaoIvjIPDpQtY' },
  },
  'GET /health/live': { response: { status: 'ok', info: {}, error: {}, details: {} } },
  'GET /health/ready': {
    response: {
      status: 'ok',
      info: { eventStore: { status: 'up' }, readModels: { status: 'up' } },
      error: {},
      details: { eventStore: { status: 'up' }, readModels: { status: 'up' } },
    },
  },
};
