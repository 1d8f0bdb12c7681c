import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newPayoutId, payoutDecider, payoutSettingsDecider, streams } from '@app/domain';
import { payableMovementsToSettle, type PayoutView, requestedPayoutView } from '@app/read-models';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { CommandRunner } from '@app/infrastructure';
import { RequestPayoutCommand } from './request-payout.command';

/**
 * An on-demand payout of what is available, at least the merchant's minimum. The ledger read may lag
 * or repeat: the payout account pays only what no standing payout settles, so the worst a lag does is
 * leave the newest releases for the next payout. The scheduler sends it (PaymentWorkReactor).
 */
@CommandHandler(RequestPayoutCommand)
export class RequestPayoutHandler implements ICommandHandler<RequestPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  async execute({ merchantId, metadata }: RequestPayoutCommand): Promise<PayoutView> {
    const [movements, { state }] = await Promise.all([payableMovementsToSettle(this.db, merchantId), this.runner.read(streams.payoutSettings(merchantId), payoutSettingsDecider)]);
    const payoutId = newPayoutId();
    const { events } = await this.runner.run(
      streams.payouts(merchantId),
      payoutDecider,
      { type: 'RequestPayout', data: { merchantId, payoutId, movements, settings: state.settings, trigger: 'on-demand', at: new Date().toISOString() } },
      metadata,
    );
    const requested = events.find((e) => e.type === 'PayoutRequested');
    if (requested?.type !== 'PayoutRequested') throw new Error(`payout ${payoutId} was not requested`);
    return requestedPayoutView(requested.data);
  }
}
