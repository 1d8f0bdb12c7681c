import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { keyedPayoutId, newPayoutId, redirectedParty } from '@app/domain';
import { PayoutBooksDeps, requestPayout } from '@app/payments';
import { type PayoutView, requestedPayoutView } from '@app/read-models';
import { Clocks, onClock } from '@app/infrastructure';
import { RequestPayoutCommand } from '@app/contract';

/**
 * An on-demand payout of the payable's and fees' balance, or of a chosen amount of it, at least the merchant's minimum (requestPayout, in
 * libs/payments). A request with an Idempotency-Key names its payout by the key, so the same request
 * again answers the payout it made. The scheduler sends it (PaymentWorkReactor).
 */
@CommandHandler(RequestPayoutCommand)
export class RequestPayoutHandler implements ICommandHandler<RequestPayoutCommand> {
  constructor(
    @Inject(PayoutBooksDeps) private readonly deps: PayoutBooksDeps,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ principal, amount, metadata }: RequestPayoutCommand): Promise<PayoutView> {
    const { id: merchantId } = redirectedParty(principal);
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
