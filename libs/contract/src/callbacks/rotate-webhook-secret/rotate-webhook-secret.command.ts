import { Command } from '@nestjs/cqrs';
import type { Principal } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

export class RotateWebhookSecretCommand extends Command<string> {
  constructor(
    readonly principal: Principal,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
