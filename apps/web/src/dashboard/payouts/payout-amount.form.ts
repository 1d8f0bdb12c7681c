import { keyedRequestDigest } from '@app/infrastructure';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { parseEtb, type Santim } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { BirrText, formBirr } from '../../kit/form';

/**
 * The new-payout form (kit/form.ts readForm), the merchant's own and a seller's on its platform's page:
 * the amount of POST /v1/trdp/payouts as typed, empty for everything available, and the key the page
 * was rendered with.
 */
export class PayoutAmountForm {
  @BirrText()
  amount?: string;

  /** Made as the page was rendered (payoutAmountField): pressing Pay out twice, or again after a lost answer, makes one payout. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

/** The chosen amount in santim, or undefined for everything available. */
export function chosenAmount(form: PayoutAmountForm): Santim | undefined {
  const birr = formBirr(form.amount, 'The amount');
  return birr === undefined ? undefined : parseEtb(birr, 'The amount');
}

/**
 * The payout command's metadata: with the form's key, a digest of the key and the amount asked, by
 * which RequestPayoutHandler names the payout (keyedPayoutId, under the party paid out), as the API's
 * Idempotency-Key does. So the same form sent again answers the payout it made; another amount typed
 * on the same page is another request.
 */
export function payoutMetadata(metadata: EventMetadata, form: PayoutAmountForm, amount: Santim | undefined): EventMetadata {
  if (!form.idempotencyKey) return metadata;
  const idempotency = keyedRequestDigest('dashboard payout', form.idempotencyKey, String(amount ?? 'all'));
  return { ...metadata, idempotency };
}
