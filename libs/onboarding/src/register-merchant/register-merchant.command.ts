import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

/** One tenant's credentials: its id and the secrets its requests and callbacks are made with. */
export interface TenantCredentials {
  merchantId: string;
  apiSecret: string;
  webhookSecret: string;
}

/**
 * An owner's two tenants: the test one (whose credentials are the top-level fields, an integration's
 * first) and the live one. The dashboard invitation is the test tenant's.
 */
export interface RegisteredMerchant extends TenantCredentials {
  name: string;
  live: TenantCredentials;
  /** One-time token of the dashboard invitation, when an owner e-mail was given. */
  invitationToken?: string;
}

export class RegisterMerchantCommand extends Command<RegisteredMerchant> {
  constructor(
    readonly name: string,
    readonly metadata: EventMetadata,
    readonly email?: string,
  ) {
    super();
  }
}
