import { type AppliedCommission, commissionAttributes, type CommissionState } from '@app/domain';

/** A platform's default (no accountId) or its override for a seller, as the commission routes answer it. */
export function presentCommission(accountId: string | undefined, state: CommissionState) {
  return { accountId: accountId ?? null, ...commissionAttributes(state.rule), version: state.version, updatedAt: state.changedAt ?? null };
}

/** The rule an escrow's allocation recorded beside the fee it computed; null: the request named the fee, or no rule applied. */
export function presentAppliedCommission(applied: AppliedCommission | undefined) {
  return applied ? { source: applied.source, version: applied.version, ...commissionAttributes(applied.rule) } : null;
}
