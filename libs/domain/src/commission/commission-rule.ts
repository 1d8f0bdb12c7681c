import { formatEtb, type Santim, toEtbNumber } from '../shared/money';
import { CommissionBoundsInverted, CommissionPercentageInvalid, CommissionRuleEmpty } from './commission.errors';

/**
 * A commission a platform takes of an allocation that names no fee (docs/guides/marketplaces.md#commission-rules):
 * `basisPoints` of the amount (1 bp = 0.01 %), plus `flat`, then raised to `minimum` and lowered to
 * `maximum`; never more than the allocation. Chapa's subaccount `split_type` percentage or flat, both at once.
 */
export interface CommissionRule {
  basisPoints?: number;
  flat?: Santim;
  minimum?: Santim;
  maximum?: Santim;
}

/** A whole in basis points: 100 % is 10,000. */
export const FULL_BASIS_POINTS = 10_000;

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/**
 * A percent as the API takes it (10.5 is 10.5 %) in basis points, read from its decimal text as parseEtb
 * reads birr: no float arithmetic, so 7.1 is 710 and never 709.
 */
export function parseBasisPoints(value: unknown, field: string): number {
  const match = typeof value === 'number' && Number.isFinite(value) ? PERCENT.exec(String(value)) : null;
  const basisPoints = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(basisPoints >= 0 && basisPoints <= FULL_BASIS_POINTS)) throw new CommissionPercentageInvalid(field);
  return basisPoints;
}

/** The rule, checked: it computes some fee, and its bounds are in order. */
export function assertCommissionRule(rule: CommissionRule): CommissionRule {
  if (rule.basisPoints === undefined && rule.flat === undefined) throw new CommissionRuleEmpty();
  if (rule.minimum !== undefined && rule.maximum !== undefined && rule.minimum > rule.maximum) throw new CommissionBoundsInverted(formatEtb(rule.minimum), formatEtb(rule.maximum));
  return rule;
}

/**
 * The fee the rule takes of `amount`: the percentage rounded half up to the santim (amount × bp ÷ 10,000,
 * in integers: BigInt, as amount × bp can pass 2^53), plus the flat part, within [minimum, maximum], and
 * at most `amount`, so the seller's net is never below zero.
 */
export function commissionFee(rule: CommissionRule, amount: Santim): Santim {
  const bp = BigInt(rule.basisPoints ?? 0);
  const percentage = (BigInt(amount) * bp + BigInt(FULL_BASIS_POINTS / 2)) / BigInt(FULL_BASIS_POINTS);
  let fee = Number(percentage) + (rule.flat ?? 0);
  if (rule.minimum !== undefined) fee = Math.max(fee, rule.minimum);
  if (rule.maximum !== undefined) fee = Math.min(fee, rule.maximum);
  return Math.min(fee, amount) as Santim;
}

/** The rule by the names and units of the API: a percent and ETB; null where it has none. */
export interface CommissionAttributes {
  percentage: number | null;
  flat: number | null;
  minimum: number | null;
  maximum: number | null;
}

const etbOrNull = (value: Santim | undefined) => (value === undefined ? null : toEtbNumber(value));

export function commissionAttributes(rule: CommissionRule | null): CommissionAttributes {
  return {
    percentage: rule?.basisPoints === undefined ? null : rule.basisPoints / 100,
    flat: etbOrNull(rule?.flat),
    minimum: etbOrNull(rule?.minimum),
    maximum: etbOrNull(rule?.maximum),
  };
}

/** What a change changed, as Stripe's `previous_attributes`: each API field whose value changed, with the value it had. */
export function commissionPreviousAttributes(before: CommissionRule | null, after: CommissionRule | null): Partial<CommissionAttributes> {
  const was = commissionAttributes(before);
  const now = commissionAttributes(after);
  return Object.fromEntries(Object.entries(was).filter(([key, value]) => now[key as keyof CommissionAttributes] !== value));
}
