import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { scheduledPayoutId } from '@app/domain';
import { EVENT_STORE, type EventMetadata, type EventStore } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { ProjectionProgress } from '@app/read-models';
import { requestPayout } from '../../payouts/payout-requests';
import { RequestScheduledPayoutCommand } from './request-scheduled-payout.command';

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payout-schedule' } };

/**
 * The payout's id derives from the merchant and the period: a job run twice, after a restart or from a
 * Redis that lost its queue, asks for the payout the period already has (its stream exists), and nothing is appended.
 */
@CommandHandler(RequestScheduledPayoutCommand)
export class RequestScheduledPayoutHandler implements ICommandHandler<RequestScheduledPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ merchantId, period }: RequestScheduledPayoutCommand): Promise<void> {
    const deps = { runner: this.runner, store: this.store, db: this.db, progress: this.progress, payoutHoldMs: this.config.payoutHoldAfterDestinationChangeMs };
    await requestPayout(deps, { merchantId, payoutId: scheduledPayoutId(merchantId, period), trigger: 'schedule', period, at: new Date().toISOString() }, SYSTEM);
  }
}
