import type { CredentialStore } from '@app/credentials';
import type { Mode } from '@app/domain';
import { OwnerTenants } from './owner-tenants';

/** Tenants as the credential store knows them: each one's mode and other mode's tenant. */
function tenantsOf(rows: Record<string, { mode: Mode; twinId: string | null }>): OwnerTenants {
  const credentials = { modeOf: async (merchantId: string) => rows[merchantId] } as unknown as CredentialStore;
  return new OwnerTenants(credentials);
}

describe('OwnerTenants: the tenants a dashboard owner may act in', () => {
  const tenants = tenantsOf({
    mer_test: { mode: 'test', twinId: 'mer_live' },
    mer_live: { mode: 'live', twinId: 'mer_test' },
    mer_other_test: { mode: 'test', twinId: 'mer_other_live' },
    mer_other_live: { mode: 'live', twinId: 'mer_other_test' },
    mer_legacy_live: { mode: 'live', twinId: null },
  });

  it("opens the owner's own tenant in each mode, whichever of the two its sign-in belongs to", async () => {
    expect([await tenants.tenantIn('mer_test', 'test'), await tenants.tenantIn('mer_test', 'live')]).toEqual(['mer_test', 'mer_live']);
    expect([await tenants.tenantIn('mer_live', 'test'), await tenants.tenantIn('mer_live', 'live')]).toEqual(['mer_test', 'mer_live']);
  });

  it('opens no tenant for a mode the owner has none in, nor for a seller (no merchant of its own)', async () => {
    expect(await tenants.tenantIn('mer_legacy_live', 'test')).toBeUndefined();
    expect(await tenants.tenantIn('acct_seller', 'live')).toBeUndefined();
  });

  it('starts a sign-in in test mode where the owner has one, else in its only tenant', async () => {
    expect(await tenants.signInTenant('mer_live')).toBe('mer_test');
    expect(await tenants.signInTenant('mer_test')).toBe('mer_test');
    expect(await tenants.signInTenant('mer_legacy_live')).toBe('mer_legacy_live');
    expect(await tenants.signInTenant('acct_seller')).toBe('acct_seller');
  });

  it('offers the switch to an owner with both modes only; a seller is in its platform’s mode, with no switch', async () => {
    expect(await tenants.modeOf({ kind: 'merchant', merchantId: 'mer_live' })).toEqual({ mode: 'live', other: 'test' });
    expect(await tenants.modeOf({ kind: 'merchant', merchantId: 'mer_legacy_live' })).toEqual({ mode: 'live' });
    expect(await tenants.modeOf({ kind: 'seller', accountId: 'acct_seller', platformId: 'mer_other_test' })).toEqual({ mode: 'test' });
  });
});
