import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { EVENT_STORE, type EventStore, type LogPosition } from '@app/event-store';
import { ProjectionProgress } from '@app/read-models';

/**
 * Read-your-writes, bounded by READ_YOUR_WRITES_TIMEOUT_MS. A waiting caller's command answers once the read
 * models include its own events (`reach`, read-your-writes.ts), unless its append wrote its stream's own
 * view in its transaction; the wait such a command skipped is owed where the views only the projector
 * writes (the ledger, deliveries, payouts, the audit's copies) are read: such a read starts once the
 * projector has reached the log's head as it stood when the read began (`current`). Every write
 * answered before then is included, whichever API process answered it; a read of the inline view
 * alone (an order, an escrow, a verify) waits for nothing.
 */
@Injectable()
export class ProjectedReads {
  private readonly logger = new Logger(ProjectedReads.name);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Resolves once the read models include `position`, or when the wait runs out (the request goes on, with a warning). */
  async reach(position: LogPosition, correlationId: unknown): Promise<void> {
    if (await this.progress.waitFor(position, this.config.readYourWritesTimeoutMs)) return;
    this.logger.warn(`read models did not catch up within READ_YOUR_WRITES_TIMEOUT_MS (request ${String(correlationId)}); going on without them`);
  }

  /** Resolves once the projected views include every event the log held when it was called. */
  async current(correlationId: unknown): Promise<void> {
    await this.reach(await this.store.head(), correlationId);
  }
}
