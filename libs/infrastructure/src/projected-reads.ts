import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { ProjectionProgress } from '@app/read-models';

/**
 * Read-your-writes for the views only the projector writes (the ledger, deliveries, payouts, the
 * audit's copies). A command whose append wrote its stream's own view answers without waiting for
 * the projector (CommandRunner), so the wait it skipped is owed where those views are read: such a
 * read starts once the projector has reached the log's head as it stood when the read began. Every
 * write answered before then is included, whichever API process answered it; a read of the inline
 * view alone (an order, an escrow, a verify) waits for nothing.
 */
@Injectable()
export class ProjectedReads {
  private readonly logger = new Logger(ProjectedReads.name);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Resolves once the projected views include every event the log held when it was called (bounded, as a command's wait is). */
  async current(correlationId?: string): Promise<void> {
    const head = await this.store.head();
    if (await this.progress.waitFor(head, this.config.readYourWritesTimeoutMs)) return;
    this.logger.warn(`read models did not catch up within READ_YOUR_WRITES_TIMEOUT_MS (request ${String(correlationId)}); reading anyway`);
  }
}
