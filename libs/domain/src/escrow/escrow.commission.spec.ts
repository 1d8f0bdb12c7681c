import { santim } from '../shared/money';
import { given } from '../testing/given';
import { createEscrow, escrowCreated } from '../testing/escrow.fixtures';
import type { AppliedCommission } from '../commission/commission.decider';
import { escrowDecider } from './escrow.decider';
import type { EscrowEvent } from './escrow.events';
import { FeeExceedsAmount } from './escrow.errors';

const escrow = (history: EscrowEvent[]) => given(escrowDecider, history);
const TEN_PERCENT: AppliedCommission = { source: 'platform', version: 3, rule: { basisPoints: 1_000, minimum: santim(500) } };
const SEVEN_PERCENT: AppliedCommission = { source: 'account', version: 1, rule: { basisPoints: 700 } };

describe('an escrow whose allocations name no fee (docs/guides/marketplaces.md#commission-rules)', () => {
  it('records the fee the rule in force computed, beside the rule that computed it', () => {
    const request = escrowCreated({
      allocations: [
        { merchantId: 'm-1', amount: santim(10_000), commission: TEN_PERCENT },
        { merchantId: 'm-2', amount: santim(12_500), commission: SEVEN_PERCENT },
      ],
    }).data;
    escrow([])
      .when(createEscrow(request))
      .then([
        escrowCreated({
          allocations: [
            { merchantId: 'm-1', amount: santim(10_000), fee: santim(1_000), commission: TEN_PERCENT },
            { merchantId: 'm-2', amount: santim(12_500), fee: santim(875), commission: SEVEN_PERCENT },
          ],
        }),
      ]);
  });

  it('keeps a fee the request names, and then records no rule', () => {
    const request = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(22_500), fee: santim(0), commission: TEN_PERCENT }] }).data;
    escrow([])
      .when(createEscrow(request))
      .then([escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(22_500), fee: santim(0) }] })]);
  });

  it('takes at most the allocation when the minimum is more than it', () => {
    const request = escrowCreated({ amount: santim(300), allocations: [{ merchantId: 'm-1', amount: santim(300), commission: TEN_PERCENT }] }).data;
    escrow([])
      .when(createEscrow(request))
      .then([escrowCreated({ amount: santim(300), allocations: [{ merchantId: 'm-1', amount: santim(300), fee: santim(300), commission: TEN_PERCENT }] })]);
  });

  it('answers a retry sent after the rule changed with the escrow as it was created: nothing is recorded again', () => {
    const created = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(22_500), fee: santim(2_250), commission: TEN_PERCENT }] });
    const retry = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(22_500), commission: { ...TEN_PERCENT, version: 4, rule: { basisPoints: 2_000 } } }] }).data;
    escrow([created]).when(createEscrow(retry)).thenNothing();
  });

  it('still refuses a named fee above its allocation', () => {
    const request = escrowCreated({ allocations: [{ merchantId: 'm-1', amount: santim(22_500), fee: santim(22_501) }] }).data;
    escrow([]).when(createEscrow(request)).thenThrows(FeeExceedsAmount);
  });
});
