import { parseEtb, type Santim } from '@app/domain';
import { BirrText, formBirr } from '../../kit/form';

/**
 * The new-payout form (kit/form.ts readForm), the merchant's own and a seller's on its platform's page:
 * the amount of POST /v1/trdp/payouts as typed, empty for everything available.
 */
export class PayoutAmountForm {
  @BirrText()
  amount?: string;
}

/** The chosen amount in santim, or undefined for everything available. */
export function chosenAmount(form: PayoutAmountForm): Santim | undefined {
  const birr = formBirr(form.amount, 'The amount');
  return birr === undefined ? undefined : parseEtb(birr, 'The amount');
}
