import type { Mode } from '@app/domain';

/**
 * The mode of a tenant (a merchant or platform) or of a platform's account (its platform's): what
 * chooses the provider for its money (docs/concepts/modes.md). Undefined for an id that names neither.
 */
export interface TenantModeReader {
  modeOf(tenantId: string): Promise<Mode | undefined>;
}

export const TENANT_MODES = Symbol('TENANT_MODES');
