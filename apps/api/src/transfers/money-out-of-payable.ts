import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { KeyedQueue } from '@app/infrastructure';
import { payableAvailableAt, ProjectionProgress } from '@app/read-models';
import { LedgerNotCurrent } from './transfers.errors';

/**
 * Money out of a merchant's payable, decided on its available balance: the balance is read once the ledger has
 * reached the log's head as it stood when the step began (so every movement written before it counts,
 * whichever process wrote it), then `spend` decides on it and appends. This process's withdrawals from
 * one payable run one at a time, each after the one before it is in the ledger, so two transfers from one
 * source at once cannot both spend the same money; a withdrawal decided in another process (a payout, a
 * second API process) is not ordered with these, as nothing yet ties their appends together.
 */
@Injectable()
export class MoneyOutOfPayable {
  private readonly queue = new KeyedQueue();

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `spend` is given the payable's available balance (signed santim: what the holding period keeps left out) and appends what it decides; its result is returned. */
  take<T>(merchantId: string, spend: (available: number) => Promise<T>): Promise<T> {
    return this.queue.run(merchantId, async () => {
      if (!(await this.progress.waitFor(await this.store.head(), this.config.readYourWritesTimeoutMs))) throw new LedgerNotCurrent();
      return spend((await payableAvailableAt(this.db, merchantId, new Date())).available);
    });
  }
}
