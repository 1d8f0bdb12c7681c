import { Inject, Injectable } from '@nestjs/common';
import { CredentialStore } from '@app/credentials';
import { type Mode, otherMode, type Principal } from '@app/domain';

/** The mode a dashboard session acts in, and the owner's other mode when it has a tenant there (what the switch offers). */
export interface DashboardMode {
  mode: Mode;
  /** Never a seller's: a seller's account belongs to one tenant of its platform, and so to one mode. */
  other?: Mode;
}

/**
 * The tenants a signed-in owner may act in (docs/concepts/modes.md): its login's tenant and that
 * tenant's other mode's (`twinId`, set by the registration that made both), never any other. The
 * switch names a mode, not a tenant, and this is the one place that turns it into a tenant: a form
 * has no way to name another owner's.
 */
@Injectable()
export class OwnerTenants {
  constructor(@Inject(CredentialStore) private readonly credentials: CredentialStore) {}

  /** The owner's tenant in `mode`; undefined when it has none there, or `subjectId` is a seller's (no merchant of its own). */
  async tenantIn(subjectId: string, mode: Mode): Promise<string | undefined> {
    const own = await this.credentials.modeOf(subjectId);
    if (!own) return undefined;
    if (own.mode === mode) return subjectId;
    return own.twinId ?? undefined;
  }

  /**
   * Where a fresh sign-in acts: the owner's test tenant when it has one, else its only tenant (one
   * registered before modes, in its deployment's legacy mode). Test first, because a browser left
   * signed in, a habit or a mistaken click then moves no real money: live is a deliberate switch.
   */
  async signInTenant(subjectId: string): Promise<string> {
    return (await this.tenantIn(subjectId, 'test')) ?? subjectId;
  }

  /** The mode of the tenant a session acts in, as the page shows it: a seller's is its platform's. */
  async modeOf(principal: Principal): Promise<DashboardMode> {
    if (principal.kind !== 'merchant' && principal.kind !== 'seller') throw new Error(`a dashboard session acts for a merchant or a seller, not ${principal.kind}`);
    const tenantId = principal.kind === 'seller' ? principal.platformId : principal.merchantId;
    const tenant = await this.credentials.modeOf(tenantId);
    if (!tenant) throw new Error(`tenant ${tenantId} has no mode`);
    return principal.kind === 'seller' || !tenant.twinId ? { mode: tenant.mode } : { mode: tenant.mode, other: otherMode(tenant.mode) };
  }
}
