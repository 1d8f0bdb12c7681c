import { type CallbackMessage, inMode } from '@app/callbacks';
import type { TenantModeReader } from '@app/credentials';
import type { SellerAccount } from './seller-accounts';

/**
 * Each message as it is sent: in the mode of the tenant it is for (docs/concepts/modes.md), a seller
 * account's its platform's. A tenant's mode never changes, so a batch asks once per tenant; a tenant
 * without one is a fault of the log (every registration has a mode once the service has started), and
 * the batch is tried again rather than sent without it.
 */
export async function inTenantModes<T extends { message: CallbackMessage }>(modes: TenantModeReader, messages: readonly T[], accounts: ReadonlyMap<string, SellerAccount>): Promise<T[]> {
  const tenantOf = (merchantId: string) => accounts.get(merchantId)?.platformId ?? merchantId;
  const tenants = [...new Set(messages.map(({ message }) => tenantOf(message.merchantId)))];
  const known = new Map(
    await Promise.all(
      tenants.map(async (tenant) => {
        const mode = await modes.modeOf(tenant);
        if (!mode) throw new Error(`tenant ${tenant} has no mode: its callbacks wait until it has one`);
        return [tenant, mode] as const;
      }),
    ),
  );
  return messages.map((item) => ({ ...item, message: inMode(item.message, known.get(tenantOf(item.message.merchantId)) === 'live') }));
}
