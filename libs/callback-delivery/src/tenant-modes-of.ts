import { type CallbackMessage, inMode } from '@app/callbacks';
import type { TenantModeReader } from '@app/credentials';
import type { Mode } from '@app/domain';
import type { SellerAccount } from './seller-accounts';

/** Past this many tenants what is kept is dropped and asked again as needed: a bound on memory. */
const KEPT_TENANTS = 10_000;

/**
 * Each message as it is sent: in the mode of the tenant it is for (docs/concepts/modes.md), a seller
 * account's its platform's. A tenant's mode never changes, so it is asked once and kept; a tenant
 * without one is a fault of the log (every registration has a mode once the service has started), and
 * the batch is tried again rather than sent without it.
 */
export class TenantModesOf {
  private readonly kept = new Map<string, Mode>();

  constructor(private readonly modes: TenantModeReader) {}

  async inModes<T extends { message: CallbackMessage }>(messages: readonly T[], accounts: ReadonlyMap<string, SellerAccount>): Promise<T[]> {
    const tenantOf = (merchantId: string) => accounts.get(merchantId)?.platformId ?? merchantId;
    if (this.kept.size > KEPT_TENANTS) this.kept.clear();
    const missing = [...new Set(messages.map(({ message }) => tenantOf(message.merchantId)))].filter((tenant) => !this.kept.has(tenant));
    await Promise.all(
      missing.map(async (tenant) => {
        const mode = await this.modes.modeOf(tenant);
        if (!mode) throw new Error(`tenant ${tenant} has no mode: its callbacks wait until it has one`);
        this.kept.set(tenant, mode);
      }),
    );
    return messages.map((item) => ({ ...item, message: inMode(item.message, this.kept.get(tenantOf(item.message.merchantId)) === 'live') }));
  }
}
