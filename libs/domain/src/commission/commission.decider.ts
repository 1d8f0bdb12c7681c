import type { Decider } from '../shared/decider';
import { assertCommissionRule, type CommissionRule } from './commission-rule';

/**
 * A platform's commission rule (`commission-{platformId}`, its default) or its override for one of its
 * sellers (`commission-{accountId}`), as versions. `rule` null: none from now on (the seller pays the
 * platform's default again; without a default, allocations that name no fee carry none).
 */
export interface CommissionChanged {
  type: 'CommissionChanged';
  data: {
    platformId: string;
    /** The seller whose override it is; absent for the platform's default. */
    accountId?: string;
    version: number;
    rule: CommissionRule | null;
    /** The rule before (null: none), as payout settings keep theirs: the answer and the audit trail say what changed from what. */
    previous: CommissionRule | null;
    changedAt: string;
  };
}

export type CommissionCommand =
  | { type: 'SetCommission'; data: { platformId: string; accountId?: string; rule: CommissionRule; at: string } }
  | { type: 'RemoveCommission'; data: { platformId: string; accountId?: string; at: string } };

export interface CommissionState {
  version: number;
  rule: CommissionRule | null;
  /** Whose rule it is, once set: a platform's default has no accountId. */
  platformId?: string;
  accountId?: string;
  changedAt?: string;
}

/** Where a rule came from, as an escrow's creation records it beside the fee it computed. */
export type CommissionSource = 'platform' | 'account';

/**
 * The rule that computed an allocation's fee, as it was when the escrow was created: a later change of
 * the rule makes a new version and never touches the fees of escrows created before it.
 */
export interface AppliedCommission {
  source: CommissionSource;
  version: number;
  rule: CommissionRule;
}

const sameRule = (a: CommissionRule | null, b: CommissionRule | null) =>
  a?.basisPoints === b?.basisPoints && a?.flat === b?.flat && a?.minimum === b?.minimum && a?.maximum === b?.maximum && (a === null) === (b === null);

/** Only the parts a rule has: an absent part and an undefined one are the same rule, and the event holds no undefined. */
const compact = (rule: CommissionRule): CommissionRule => Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)) as CommissionRule;

export const commissionDecider: Decider<CommissionCommand, CommissionChanged, CommissionState> = {
  initialState: () => ({ version: 0, rule: null }),
  evolve: (_state, { data }) => ({ version: data.version, rule: data.rule, platformId: data.platformId, ...(data.accountId === undefined ? {} : { accountId: data.accountId }), changedAt: data.changedAt }),
  decide: (command, state) => {
    const rule = command.type === 'SetCommission' ? compact(assertCommissionRule(command.data.rule)) : null;
    if (sameRule(state.rule, rule)) return [];
    const { platformId, accountId, at } = command.data;
    return [{ type: 'CommissionChanged', data: { platformId, ...(accountId === undefined ? {} : { accountId }), version: state.version + 1, rule, previous: state.rule, changedAt: at } }];
  },
};

/**
 * The rule an allocation pays the escrow's creator (`platformId`) when it names no fee: its payee's
 * override, else the platform's default, else none. `payee` is the state of the stream keyed by the
 * payee's id, which is an override only if this platform set it for its account (a linked merchant's
 * stream of that key is its own default as a platform, nothing this platform may apply).
 */
export function commissionFor(platformId: string, platform: CommissionState, payee: CommissionState | undefined): AppliedCommission | undefined {
  const override = payee?.accountId !== undefined && payee.platformId === platformId ? payee : undefined;
  if (override?.rule) return { source: 'account', version: override.version, rule: override.rule };
  if (platform.rule) return { source: 'platform', version: platform.version, rule: platform.rule };
  return undefined;
}
