import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { payoutDecider, payoutSettingsDecider, scheduledPayoutId, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { payableMovementsToSettle } from '@app/read-models';
import { RequestScheduledPayoutCommand } from './request-scheduled-payout.command';

const SYSTEM: EventMetadata = { actor: { type: 'system', id: 'payout-schedule' } };

/**
 * The payout's id derives from the merchant and the period: a job run twice, after a restart or from a
 * Redis that lost its queue, asks for the payout the period already has, and the account appends nothing.
 */
@CommandHandler(RequestScheduledPayoutCommand)
export class RequestScheduledPayoutHandler implements ICommandHandler<RequestScheduledPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  async execute({ merchantId, period }: RequestScheduledPayoutCommand): Promise<void> {
    const [movements, { state }] = await Promise.all([payableMovementsToSettle(this.db, merchantId), this.runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider)]);
    await this.runner.run(
      streams.payouts(merchantId),
      payoutDecider,
      {
        type: 'RequestPayout',
        data: { merchantId, payoutId: scheduledPayoutId(merchantId, period), movements, settings: state.settings, trigger: 'schedule', period, at: new Date().toISOString() },
      },
      SYSTEM,
    );
  }
}
