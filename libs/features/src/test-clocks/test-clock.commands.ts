import { Command } from '@nestjs/cqrs';
import type { AuthenticatedMerchant } from '@app/credentials';
import type { TestClock } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/** What the handler reads of the request: the REST edge's CreateTestClockDto validates and documents it. */
export interface CreateTestClockRequest {
  frozenTime: string;
  name?: string;
}

export class CreateTestClockCommand extends Command<TestClock> {
  constructor(
    readonly merchant: AuthenticatedMerchant,
    readonly request: CreateTestClockRequest,
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
