import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';

/** Gives one of the operator's staff a key of their own to the admin API and the audit console (shown once). */
export class RegisterStaffMemberCommand extends Command<{ staffId: string; staffKey: string }> {
  constructor(
    readonly name: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** Ends a staff member's key and the console sessions it opened. */
export class RevokeStaffKeyCommand extends Command<void> {
  constructor(
    readonly staffId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
