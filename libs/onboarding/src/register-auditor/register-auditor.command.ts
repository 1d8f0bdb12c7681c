import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

export class RegisterAuditorCommand extends Command<{ auditorId: string; auditorKey: string }> {
  constructor(
    readonly name: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
