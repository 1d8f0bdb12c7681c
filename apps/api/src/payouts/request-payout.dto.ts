import { ApiPropertyOptional } from '@nestjs/swagger';
import { parseEtb, PayoutAmountInvalid, type Santim } from '@app/domain';
import { refuseUndeclared } from '@app/http';

/**
 * The body of POST /v1/trdp/payouts, which may also be absent (a payout of everything available, as
 * before the body existed): the route reads it by hand (requestedAmount), and documents it by this class.
 */
export class RequestPayoutDto {
  @ApiPropertyOptional({
    type: Number,
    example: 40,
    description:
      'ETB, at most two decimals: pay out this much of what is available (at least the minimum of the payout settings; the rest stays for a later payout). Left out: everything available. PAYOUT_AMOUNT_INVALID when zero, negative or not an ETB amount; PAYOUT_AMOUNT_EXCEEDS_AVAILABLE above what is available; PAYOUT_AMOUNT_BELOW_MINIMUM below the minimum',
  })
  amount?: number;
}

/** The chosen amount of a payout's body in santim, or undefined for everything available; a field other than `amount` is 400 UNKNOWN_FIELD. */
export function requestedAmount(body: unknown): Santim | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw new PayoutAmountInvalid('the body must be a JSON object');
  refuseUndeclared(body, ['amount']);
  const { amount } = body as { amount?: unknown };
  if (amount === undefined) return undefined;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw new PayoutAmountInvalid(`not ${JSON.stringify(amount) ?? String(amount)}`);
  try {
    return parseEtb(amount, 'amount');
  } catch (error) {
    throw new PayoutAmountInvalid(error instanceof Error ? error.message : String(error));
  }
}
