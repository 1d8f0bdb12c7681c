import { Command } from '@nestjs/cqrs';
import type { TestClock } from '@app/domain';
import type { EventMetadata } from '@app/event-store';

/**
 * Moves a tenant's test clock forward to `frozenTime` and runs, in the order of their instants, what its
 * objects waited for by then; answers the clock once it is ready again. The same time asked for again
 * while the clock is still advancing (an advance whose process stopped) resumes the advance.
 */
export class AdvanceTestClockCommand extends Command<TestClock> {
  constructor(
    readonly merchantId: string,
    readonly testClockId: string,
    readonly frozenTime: string,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}
