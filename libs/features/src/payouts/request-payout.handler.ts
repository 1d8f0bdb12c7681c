import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { keyedPayoutId, newPayoutId, redirectedParty } from '@app/domain';
import { PaymentProviders, PayoutBooksDeps, requestPayout } from '@app/payments';
import { type PayoutView, requestedPayoutView } from '@app/read-models';
import { Clocks, onClock } from '@app/infrastructure';
import { RequestPayoutCommand } from '@app/contract';

/**
 * An on-demand payout of the payable's and fees' balance, or of a chosen amount of it, at least the merchant's minimum (requestPayout, in
 * libs/payments). A request with an Idempotency-Key names its payout by the key, so the same request
 * again answers the payout it made (a dashboard form's key likewise). A live party's payout on a
 * deployment with no live provider is refused before anything is read or written (LIVE_MODE_NOT_CONFIGURED).
 */
@CommandHandler(RequestPayoutCommand)
export class RequestPayoutHandler implements ICommandHandler<RequestPayoutCommand> {
  constructor(
    @Inject(PayoutBooksDeps) private readonly deps: PayoutBooksDeps,
    @Inject(Clocks) private readonly clocks: Clocks,
    @Inject(PaymentProviders) private readonly providers: PaymentProviders,
  ) {}

  async execute({ principal, amount, metadata }: RequestPayoutCommand): Promise<PayoutView> {
    const { id: merchantId } = redirectedParty(principal);
    await this.providers.assertTenantCanMove(merchantId);
    const digest = metadata.idempotency;
    const payoutId = typeof digest === 'string' ? keyedPayoutId(merchantId, digest) : newPayoutId();
    // An account on a test clock decides on its clock's time (docs/concepts/time.md).
    const clock = await this.clocks.ofParty(merchantId);
    const at = clock.clock.now().toISOString();
    const requested = await requestPayout(this.deps, { merchantId, payoutId, trigger: 'on-demand', at, ...(amount !== undefined && { amount }) }, onClock(metadata, clock));
    if (!requested) throw new Error(`payout ${payoutId} was not requested`);
    return requestedPayoutView(requested.data);
  }
}
