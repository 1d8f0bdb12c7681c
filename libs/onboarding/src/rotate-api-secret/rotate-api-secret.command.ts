import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

export class RotateApiSecretCommand extends Command<string> {
  constructor(
    readonly merchantId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
