import type { OperationExamples } from '@app/http';

/** A merchant's link to a platform (docs/concepts/authority.md): what lets the platform's transfers and allocations name it. */
const LINK = { merchantId: 'mer_0f3a6c9e2b5d8a1c4e7f0b3d', platformId: 'mer_5b1c0e4f9a2d7c3e8f6a1b0d', linked: true, decidedBy: 'merchant', since: '2026-11-28T05:17:20.313Z' };

export const PLATFORM_LINK_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/platform-links': { request: { platformId: LINK.platformId }, data: LINK },
  'GET /v1/trdp/platform-links': { data: { linkedPlatforms: [LINK], linkedMerchants: [] } },
  'DELETE /v1/trdp/platform-links/{platformId}': { data: { ...LINK, linked: false, since: '2026-11-28T06:02:11.104Z' } },
  'POST /v1/admin/merchants/{merchantId}/platform-links': { request: { platformId: LINK.platformId }, data: { ...LINK, decidedBy: 'operator' } },
  'DELETE /v1/admin/merchants/{merchantId}/platform-links/{platformId}': { data: { ...LINK, linked: false, decidedBy: 'operator', since: '2026-11-28T06:02:11.104Z' } },
};
