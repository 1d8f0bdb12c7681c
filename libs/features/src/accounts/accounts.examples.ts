import type { OperationExamples } from '@app/http';

/** A platform’s seller accounts: one registered with the platform’s own reference, then one without. */

const ACCOUNT = {
  accountId: 'acct_401c23a4e675c6e6915e1507f02717d4',
  reference: 'seller-18',
  type: 'individual',
  name: 'Tigist Crafts',
  email: null,
  phone: null,
  tin: null,
  tradeLicenceNumber: null,
  callbackURL: null,
  metadata: null,
  status: 'PENDING_VERIFICATION',
  statusReason: null,
  requirements: ['payoutDestination'],
  requirementsDue: [],
  payoutsHeldUntil: null,
  testClockId: null,
  createdAt: '2026-11-28T05:17:19.491Z',
  updatedAt: '2026-11-28T05:17:19.491Z',
};

const CREATED = {
  ...ACCOUNT,
  accountId: 'acct_334fd3b8679f930e76244c7f6a5f9ec5',
  reference: null,
  createdAt: '2026-11-28T05:17:23.534Z',
  updatedAt: '2026-11-28T05:17:23.534Z',
};

/** A trade licence uploaded for the account: what it is, never its bytes. */
const DOCUMENT = {
  documentId: 'doc_9c1e5b7a0f3d4e2a6b8c1d0e',
  kind: 'trade_licence',
  contentType: 'application/pdf',
  size: 184211,
  sha256: '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
  uploadedAt: '2026-11-28T05:21:02.118Z',
  uploadedBy: { type: 'merchant', id: 'mer_2ef868dd3eaa4866d7a19e7d' },
};

/** What a document download answers: its bytes (a PDF's begin so). */
const DOCUMENT_BYTES = '%PDF-1.7\n…';

/** An account's balance as the platform's reads show it beside the account. */
const withBalance = (account: object, balance: { available: number; onHold: number; reserve: number; pending: number; negative: boolean }) => ({ ...account, balance });

/** The account as the operator's review answers it: a business verified by a staff member (their own key) after they asked for its licence. */
const REVIEWED = {
  ...ACCOUNT,
  type: 'business',
  tin: '0012345678',
  tradeLicenceNumber: 'AA/14/1234/2030',
  status: 'VERIFIED',
  statusReason: 'Licence checked against the registry',
  updatedAt: '2026-11-28T05:25:40.002Z',
  decidedBy: { type: 'admin', id: 'stf_4c1d9e0a7b2f5e8c3a6d1f0b' },
};

export const ACCOUNT_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/accounts': { request: { name: 'Tigist Crafts', type: 'individual' }, data: CREATED },
  'GET /v1/trdp/accounts': {
    data: {
      accounts: [withBalance(CREATED, { available: 0, onHold: 0, reserve: 0, pending: 0, negative: false }), withBalance(ACCOUNT, { available: 1080, onHold: 410, reserve: 0, pending: 1200, negative: false })],
      hasMore: false,
    },
  },
  'POST /v1/trdp/accounts/{accountId}': {
    request: { email: 'sales@tigist-crafts.example' },
    data: { ...ACCOUNT, email: 'sales@tigist-crafts.example', updatedAt: '2026-11-28T05:17:23.725Z', previousAttributes: { email: null } },
  },
  'POST /v1/trdp/accounts/{accountId}/close': {
    request: { reason: 'The seller left the marketplace' },
    data: { ...ACCOUNT, status: 'CLOSED', statusReason: 'The seller left the marketplace', requirements: [], updatedAt: '2026-11-28T05:31:09.114Z' },
  },
  'POST /v1/trdp/accounts/{accountId}/invitation': {
    request: { email: 'owner@tigist-crafts.example' },
    data: {
      accountId: ACCOUNT.accountId,
      invitationUrl: 'http://localhost:3000/dashboard/invitation#inv_Qm9vdC1zZWxsZXItb3duZXItaW52aXRhdGlvbi0x',
    },
  },
  'POST /v1/trdp/accounts/{accountId}/documents': { data: DOCUMENT },
  'GET /v1/trdp/accounts/{accountId}/documents': { data: { documents: [DOCUMENT] } },
  'GET /v1/trdp/accounts/{accountId}/documents/{documentId}': { response: DOCUMENT_BYTES },
  'POST /v1/trdp/account-links': {
    request: { accountId: ACCOUNT.accountId, returnUrl: 'https://merkato.example/sellers/onboarded', refreshUrl: 'https://merkato.example/sellers/onboarding-link' },
    data: {
      accountId: ACCOUNT.accountId,
      url: 'http://localhost:3000/onboarding/acctlink_T25ib2FyZGluZy1saW5rLWV4YW1wbGUtdG9rZW4tMDAx',
      expiresAt: '2026-11-28T05:27:23.725Z',
    },
  },
  'GET /v1/trdp/accounts/{accountId}': { data: withBalance(ACCOUNT, { available: 1080, onHold: 410, reserve: 0, pending: 1200, negative: false }) },
  'POST /v1/admin/accounts/{accountId}/approve': { request: { reason: 'Licence checked against the registry' }, data: REVIEWED },
  'POST /v1/admin/accounts/{accountId}/reject': {
    request: { reason: 'The trade licence belongs to another business' },
    data: { ...REVIEWED, status: 'REJECTED', statusReason: 'The trade licence belongs to another business' },
  },
  'POST /v1/admin/accounts/{accountId}/request-information': {
    request: { requirements: [{ kind: 'trade_licence', dueBy: '2026-12-15T09:00:00.000Z' }], reason: 'The licence on file expired in November' },
    data: { ...ACCOUNT, requirementsDue: [{ kind: 'trade_licence', dueBy: '2026-12-15T09:00:00.000Z', pastDue: false }], updatedAt: '2026-11-28T05:19:12.440Z', decidedBy: REVIEWED.decidedBy },
  },
  'GET /v1/admin/accounts/{accountId}/documents': { data: { documents: [DOCUMENT] } },
  'GET /v1/admin/accounts/{accountId}/documents/{documentId}': { response: DOCUMENT_BYTES },
};
