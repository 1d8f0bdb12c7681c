import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { keyedPayoutId, newPayoutId } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { requestPayout } from '@app/payments';
import { ProjectionProgress, type PayoutView, requestedPayoutView } from '@app/read-models';
import { RequestPayoutCommand } from './request-payout.command';

/**
 * An on-demand payout of the payable's and fees' balance, at least the merchant's minimum (requestPayout, in
 * libs/payments). A request with an Idempotency-Key names its payout by the key, so the same request
 * again answers the payout it made. The scheduler sends it (PaymentWorkReactor).
 */
@CommandHandler(RequestPayoutCommand)
export class RequestPayoutHandler implements ICommandHandler<RequestPayoutCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ merchantId, metadata }: RequestPayoutCommand): Promise<PayoutView> {
    const digest = metadata.idempotency;
    const payoutId = typeof digest === 'string' ? keyedPayoutId(merchantId, digest) : newPayoutId();
    const deps = { runner: this.runner, store: this.store, db: this.db, progress: this.progress, payoutHoldMs: this.config.payoutHoldAfterDestinationChangeMs };
    const requested = await requestPayout(deps, { merchantId, payoutId, trigger: 'on-demand', at: new Date().toISOString() }, metadata);
    if (!requested) throw new Error(`payout ${payoutId} was not requested`);
    return requestedPayoutView(requested.data);
  }
}
