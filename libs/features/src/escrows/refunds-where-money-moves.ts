import { type Decider, type EscrowCommand, type EscrowEvent, type EscrowState, ESCROW_PAYMENT_EVENTS } from '@app/domain';
import { LiveModeNotConfigured, type PaymentProviders } from '@app/payments';

/**
 * The escrow's decider, refusing (LIVE_MODE_NOT_CONFIGURED) a decision that asks the provider for a
 * refund of a tenant whose money cannot move on this deployment (a live one's with no live provider):
 * whether a command refunds is the decision's (a cancel refunds only a paid escrow, a dispute's
 * resolution only a part given back), so it is refused on the state it is decided on, before anything
 * is appended, and a command that moves nothing stays allowed.
 */
export async function refundsWhereMoneyMoves(
  providers: PaymentProviders,
  tenantId: string,
  decider: Decider<EscrowCommand, EscrowEvent, EscrowState>,
): Promise<Decider<EscrowCommand, EscrowEvent, EscrowState>> {
  if (await providers.tenantCanMove(tenantId)) return decider;
  return {
    ...decider,
    decide: (command, state) => {
      const events = decider.decide(command, state);
      if (events.some((event) => event.type === ESCROW_PAYMENT_EVENTS.refundRequested)) throw new LiveModeNotConfigured();
      return events;
    },
  };
}
