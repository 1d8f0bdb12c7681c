import { Command } from '@nestjs/cqrs';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { TestClock } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import type { CreateTestClockDto } from './test-clock.dto';

export class CreateTestClockCommand extends Command<TestClock> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateTestClockDto,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

export class DeleteTestClockCommand extends Command<void> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly testClockId: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
