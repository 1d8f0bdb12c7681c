import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

export interface RegisteredMerchant {
  merchantId: string;
  name: string;
  apiSecret: string;
  webhookSecret: string;
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
