import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

export interface RegisteredMerchant {
  merchantId: string;
  name: string;
  apiSecret: string;
  webhookSecret: string;
}

export class RegisterMerchantCommand extends Command<RegisteredMerchant> {
  constructor(
    readonly name: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
