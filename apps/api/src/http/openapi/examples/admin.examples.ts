import type { OperationExamples } from '@app/http';

/** The staff API (admin key) and the health checks. */
export const ADMIN_EXAMPLES: OperationExamples = {
  'POST /v1/admin/merchants': {
    request: { name: 'Merkato Online' },
    data: {
      merchantId: 'mer_d2e69ca6f59255a3e4e9e065',
      apiSecret: 'sk_test_sYFg1IZrjDsQjda5i9L_5By-8C6LJ2lq6nA9TM47zyc',
      webhookSecret: 'whsec_test_hsyeX3edxFpWFrKdjT1xa8wvj1j24zAFLOzEby9GhtI',
      livemode: false,
      live: {
        merchantId: 'mer_5b1f0e7a9c2d48e3a6f71b20',
        apiSecret: 'sk_live_Qm2x8VbN4pLk7RtY1wZs3HdJ6fGc9TqA0eUoXiPnKyM',
        webhookSecret: 'whsec_live_Zt5Yb2Nq8Wm1Lp4Rv7Xc0Hs3Jd6Kf9Ga2TeUoBiQnMy',
        livemode: true,
      },
    },
  },
  'POST /v1/admin/merchants/{merchantId}/other-mode': {
    data: {
      merchantId: 'mer_7c3e91b0d45a26f8e1b9c0d2',
      apiSecret: 'sk_live_Hn4Rz8Wq1Vb6Tk3Ym0Ls7Pd2Jf5Gc9XeUoAiQnKyBt',
      webhookSecret: 'whsec_live_Bq7Xm2Nv5Lp8Rt1Yz4Wc6Hs9Jd3Kf0GaTeUoIiQnMy',
      livemode: true,
      twinId: 'mer_d2e69ca6f59255a3e4e9e065',
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
