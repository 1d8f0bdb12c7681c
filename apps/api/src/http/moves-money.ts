import { type CanActivate, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { PaymentProviders } from '@app/payments';
import type { RequestWithActor } from '@app/http';

/**
 * A live key's request that would move money (a payment, a refund, a payout) on a deployment with no
 * live provider is refused before anything is written: nothing could ever settle it (docs/concepts/modes.md).
 */
@Injectable()
export class LiveMoneyGuard implements CanActivate {
  constructor(@Inject(PaymentProviders) private readonly providers: PaymentProviders) {}

  canActivate(context: ExecutionContext): boolean {
    const mode = context.switchToHttp().getRequest<RequestWithActor>().merchant?.mode;
    if (mode) this.providers.assertCanMove(mode);
    return true;
  }
}

/** On a merchant API route (after MerchantApi's guard) whose request moves money; its 409s list LIVE_MODE_NOT_CONFIGURED. */
export const MovesMoney = () => UseGuards(LiveMoneyGuard);
