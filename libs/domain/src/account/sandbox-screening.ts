import type { Screening } from './account.events';

/** The sandbox's test TINs (docs/guides/marketplaces.md): one verifies at once, one is rejected at once; any other waits for review. */
export const SANDBOX_TINS = { verified: '0000000001', rejected: '0000000009' } as const;

/** Only the sandbox decides on its own, so that an integration can be tested end to end; with a real provider staff review every account. */
export function sandboxScreening(tin: string | undefined): Screening | undefined {
  const decidedBy = { type: 'system', id: 'sandbox' } as const;
  if (tin === SANDBOX_TINS.verified) return { decision: 'VERIFIED', reason: `sandbox test TIN ${tin}`, decidedBy };
  if (tin === SANDBOX_TINS.rejected) return { decision: 'REJECTED', reason: `sandbox test TIN ${tin}`, decidedBy };
  return undefined;
}
