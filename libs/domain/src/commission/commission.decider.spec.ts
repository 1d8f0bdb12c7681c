import { santim } from '../shared/money';
import { given } from '../testing/given';
import { type CommissionChanged, commissionDecider, commissionFor, type CommissionState } from './commission.decider';
import { CommissionBoundsInverted, CommissionRuleEmpty } from './commission.errors';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const TEN_PERCENT = { basisPoints: 1_000, minimum: santim(500) };
const set = (rule: object, accountId?: string) => ({ type: 'SetCommission' as const, data: { platformId: 'platform-1', ...(accountId ? { accountId } : {}), rule, at: LATER } });
const changed = (version: number, rule: object | null, previous: object | null, accountId?: string): CommissionChanged => ({
  type: 'CommissionChanged',
  data: { platformId: 'platform-1', ...(accountId ? { accountId } : {}), version, rule, previous, changedAt: version === 1 ? AT : LATER },
});

describe('commission rules as versions', () => {
  it('records a first rule with none before it, then each change with the rule it replaced', () => {
    given(commissionDecider, []).when({ ...set(TEN_PERCENT), data: { ...set(TEN_PERCENT).data, at: AT } }).then([changed(1, TEN_PERCENT, null)]);
    given(commissionDecider, [changed(1, TEN_PERCENT, null)])
      .when(set({ basisPoints: 1_200 }))
      .then([changed(2, { basisPoints: 1_200 }, TEN_PERCENT)]);
  });

  it('records nothing for the same rule again, nor for removing a rule there is not', () => {
    given(commissionDecider, [changed(1, TEN_PERCENT, null)]).when(set({ ...TEN_PERCENT, flat: undefined })).thenNothing();
    given(commissionDecider, []).when({ type: 'RemoveCommission', data: { platformId: 'platform-1', at: LATER } }).thenNothing();
  });

  it('removes a rule, keeping what it was', () => {
    given(commissionDecider, [changed(1, { basisPoints: 700 }, null, 'acct_1')])
      .when({ type: 'RemoveCommission', data: { platformId: 'platform-1', accountId: 'acct_1', at: LATER } })
      .then([changed(2, null, { basisPoints: 700 }, 'acct_1')]);
  });

  it('refuses a rule that computes nothing, and bounds out of order', () => {
    given(commissionDecider, []).when(set({ minimum: santim(500) })).thenThrows(CommissionRuleEmpty);
    given(commissionDecider, []).when(set({ basisPoints: 1_000, minimum: santim(500), maximum: santim(499) })).thenThrows(CommissionBoundsInverted);
  });
});

describe('the rule an allocation pays', () => {
  const state = (history: CommissionChanged[]): CommissionState => history.reduce(commissionDecider.evolve, commissionDecider.initialState());
  const platform = state([changed(1, TEN_PERCENT, null)]);

  it("is the seller's override, else the platform's default, each with its version", () => {
    expect(commissionFor('platform-1', platform, state([changed(1, { basisPoints: 700 }, null, 'acct_1'), changed(2, { basisPoints: 800 }, { basisPoints: 700 }, 'acct_1')]))).toEqual({
      source: 'account',
      version: 2,
      rule: { basisPoints: 800 },
    });
    expect(commissionFor('platform-1', platform, state([]))).toEqual({ source: 'platform', version: 1, rule: TEN_PERCENT });
    expect(commissionFor('platform-1', platform, state([changed(1, { basisPoints: 700 }, null, 'acct_1'), changed(2, null, { basisPoints: 700 }, 'acct_1')]))).toMatchObject({ source: 'platform' });
    expect(commissionFor('platform-1', state([]), undefined)).toBeUndefined();
  });

  it("never takes a linked merchant's own default, nor another platform's override, for an override", () => {
    const linkedMerchantsDefault = state([{ type: 'CommissionChanged', data: { platformId: 'merchant-2', version: 1, rule: { basisPoints: 9_000 }, previous: null, changedAt: AT } }]);
    expect(commissionFor('platform-1', platform, linkedMerchantsDefault)).toMatchObject({ source: 'platform', rule: TEN_PERCENT });
    const othersOverride = state([{ type: 'CommissionChanged', data: { platformId: 'platform-2', accountId: 'acct_9', version: 1, rule: { basisPoints: 9_000 }, previous: null, changedAt: AT } }]);
    expect(commissionFor('platform-1', platform, othersOverride)).toMatchObject({ source: 'platform' });
  });
});
