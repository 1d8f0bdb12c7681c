import type { AppConfig } from '@app/config';
import { sandboxScreening, type Screening } from '@app/domain';

/** The sandbox's decision on test values; none with a real provider, where staff review every account. */
export const screeningFor = (config: AppConfig, tin: string | undefined): Screening | undefined =>
  config.paymentProvider === 'sandbox' ? sandboxScreening(tin) : undefined;
