import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { ProjectionProgress } from '@app/read-models';

/**
 * What a decision at a merchant's payout books (`payout-books-{merchantId}`) reads and appends through:
 * an on-demand or scheduled payout (requestPayout) and a transfer out of its source's money
 * (the API's transfers, decided at their source's books) take the same books, ledger and waits, so one provider
 * (PaymentsModule) gives them to the API and the worker alike.
 */
@Injectable()
export class PayoutBooksDeps {
  /** PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS, in milliseconds. */
  readonly payoutHoldMs: number;
  /** READ_YOUR_WRITES_TIMEOUT_MS: how long a transfer waits for the ledger before it answers LEDGER_NOT_CURRENT. */
  readonly readYourWritesTimeoutMs: number;

  constructor(
    @Inject(CommandRunner) readonly runner: CommandRunner,
    @Inject(EVENT_STORE) readonly store: EventStore,
    @Inject(SQL_CLIENT) readonly db: SqlClient,
    @Inject(ProjectionProgress) readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.payoutHoldMs = config.payoutHoldAfterDestinationChangeMs;
    this.readYourWritesTimeoutMs = config.readYourWritesTimeoutMs;
  }
}
