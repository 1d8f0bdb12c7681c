import type { OperationExamples } from '@app/http';

/** A platform takes 10 % (at least 5 ETB) of its sellers' allocations, and 7 % of one seller's. */

const ACCOUNT_ID = 'acct_401c23a4e675c6e6915e1507f02717d4';
const DEFAULT = { accountId: null, percentage: 10, flat: null, minimum: 5, maximum: null, version: 1, updatedAt: '2026-11-28T05:20:00.000Z' };
const OVERRIDE = { accountId: ACCOUNT_ID, percentage: 7, flat: null, minimum: null, maximum: null, version: 1, updatedAt: '2026-11-28T05:21:00.000Z' };
const NONE = { percentage: null, flat: null, minimum: null, maximum: null };

export const COMMISSION_EXAMPLES: OperationExamples = {
  'GET /v1/trdp/commission': { data: DEFAULT },
  'POST /v1/trdp/commission': { request: { percentage: 10, minimum: 5 }, data: { ...DEFAULT, previousAttributes: { percentage: null, minimum: null } } },
  'DELETE /v1/trdp/commission': {
    data: { ...DEFAULT, ...NONE, version: 2, updatedAt: '2026-11-29T08:00:00.000Z', previousAttributes: { percentage: 10, minimum: 5 } },
  },
  'GET /v1/trdp/accounts/{accountId}/commission': { data: OVERRIDE },
  'POST /v1/trdp/accounts/{accountId}/commission': { request: { percentage: 7 }, data: { ...OVERRIDE, previousAttributes: { percentage: null } } },
  'DELETE /v1/trdp/accounts/{accountId}/commission': {
    data: { ...OVERRIDE, ...NONE, version: 2, updatedAt: '2026-11-29T08:00:00.000Z', previousAttributes: { percentage: 7 } },
  },
};
