import type { Mode } from '@app/domain';
import type { TenantModes } from '@app/onboarding';

/**
 * The CLI never decides the mode of data written before modes (docs/concepts/modes.md): it reads the
 * service's decision. Until the service's first start of this release has made it, a merchant
 * registered before modes has no mode, and what depends on one is refused.
 */
export class ModeUndecided extends Error {
  constructor(merchantId: string) {
    super(
      `${merchantId} was registered before test and live modes, and this deployment has not decided their mode yet: ` +
        'the service decides it at its first start of this release, from its own settings (docs/concepts/modes.md). Start the service once, then run this again.',
    );
  }
}

/** A tenant's mode as the CLI shows it: null while the service has not decided the mode of merchants from before modes. */
export function modeOf(modes: TenantModes, merchantId: string): Promise<Mode | null> {
  return modes.modeOf(merchantId).then((mode) => mode ?? null);
}

/** Refuses an operation whose outcome depends on the merchant's mode (a new key says it) while it has none. */
export async function requireMode(modes: TenantModes, merchantId: string): Promise<void> {
  if ((await modes.modeOf(merchantId)) === undefined && (await modes.legacyMode()) === undefined) throw new ModeUndecided(merchantId);
}
