import { fold } from '../shared/decider';
import { santim } from '../shared/money';
import {
  allocationReleased,
  cancelEscrow,
  CREATED_AT,
  createEscrow,
  DURING_WINDOW,
  ESCROW_ID,
  escrowCreated,
  escrowFunded,
  EXPIRES_AT,
  LATER,
  OWNER,
  refundId,
  releaseAllocation,
} from '../testing/escrow.fixtures';
import { given } from '../testing/given';
import type { EscrowCommand } from './escrow.commands';
import { escrowDecider } from './escrow.decider';
import { frozenAmount, heldAmount } from './escrow.state';
import type { EscrowEvent } from './escrow.events';
import {
  AllocationDisputed,
  AllocationNotDisputed,
  AutoReleaseBeforeExpiry,
  AutoReleaseConflict,
  AutoReleaseNotAhead,
  DisputeSplitMismatch,
  EscrowNotFound,
  EscrowNotFunded,
} from './escrow.errors';

const escrow = (history: EscrowEvent[]) => given(escrowDecider, history);
const stateAfter = (history: EscrowEvent[]) => fold(escrowDecider, history);
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const DAY = 24 * 60;

const dispute = (allocation?: string, by = OWNER): EscrowCommand => ({
  type: 'OpenDispute',
  data: { escrowId: ESCROW_ID, merchantId: by, ...(allocation ? { allocation } : {}), reason: 'not delivered', at: LATER },
});
const resolve = (resolutions: { merchantId?: string; release: number; refund: number }[]): EscrowCommand => ({
  type: 'ResolveDispute',
  data: { escrowId: ESCROW_ID, merchantId: OWNER, resolutions: resolutions.map((r) => ({ ...r, release: santim(r.release), refund: santim(r.refund) })), note: 'half each', at: LATER },
});
const releaseDue = (when: string): EscrowCommand => ({ type: 'ReleaseDue', data: { escrowId: ESCROW_ID, at: when } });
const reschedule = (autoReleaseAt: string | null, when = LATER): EscrowCommand => ({
  type: 'RescheduleAutoRelease',
  data: { escrowId: ESCROW_ID, merchantId: OWNER, autoReleaseAt, at: when },
});
const disputeOpened = (merchantIds: string[]): EscrowEvent => ({ type: 'DisputeOpened', data: { merchantIds, reason: 'not delivered', openedAt: LATER } });

describe('Escrow automatic release', () => {
  const AUTO = at(EXPIRES_AT, DAY);
  const withAuto = escrowCreated({ autoReleaseAt: AUTO });

  it('is set at creation after expiry, at most 365 days ahead, and not beside releaseAfterDays', () => {
    escrow([]).when(createEscrow(withAuto.data)).then([withAuto]);
    escrow([]).when(createEscrow(escrowCreated({ autoReleaseAt: EXPIRES_AT }).data)).thenThrows(AutoReleaseBeforeExpiry);
    escrow([]).when(createEscrow(escrowCreated({ autoReleaseAt: at(CREATED_AT, 366 * DAY) }).data)).thenThrows(AutoReleaseNotAhead);
    escrow([]).when(createEscrow(escrowCreated({ autoReleaseAt: AUTO, releaseAfterDays: 3 }).data)).thenThrows(AutoReleaseConflict);
  });

  it('counted in days from payment when given as releaseAfterDays', () => {
    expect(stateAfter([escrowCreated({ releaseAfterDays: 7 }), escrowFunded()]).autoReleaseAt).toBe(at(DURING_WINDOW, 7 * DAY));
  });

  it('releases nothing before its instant; at it, all that is held, as automatic releases; then nothing more', () => {
    const funded = [withAuto, escrowFunded(), allocationReleased({ merchantId: 'm-1', amount: santim(4_000) })];
    escrow(funded).when(releaseDue(at(AUTO, -1))).then([]);
    const released: EscrowEvent[] = [
      { type: 'AllocationReleased', data: { merchantId: 'm-1', amount: santim(6_000), releasedAt: AUTO, automatic: true } },
      { type: 'AllocationReleased', data: { merchantId: 'm-2', amount: santim(12_500), releasedAt: AUTO, automatic: true } },
    ];
    escrow(funded).when(releaseDue(AUTO)).then(released);
    escrow(funded).when(releaseDue(AUTO)).thenState({ status: 'RELEASED' });
    escrow([...funded, ...released]).when(releaseDue(at(AUTO, 60))).then([]);
  });

  it('an escrow without one, or one that was never paid, is not released', () => {
    escrow([escrowCreated(), escrowFunded()]).when(releaseDue(at(AUTO, 1))).then([]);
    escrow([withAuto]).when(releaseDue(AUTO)).then([]);
  });

  it('can be moved or cleared by its merchant while money is held, not into the past', () => {
    const funded = [withAuto, escrowFunded()];
    const moved = at(LATER, 60);
    escrow(funded).when(reschedule(moved)).then([{ type: 'AutoReleaseRescheduled', data: { autoReleaseAt: moved, rescheduledAt: LATER } }]);
    expect(stateAfter([...funded, { type: 'AutoReleaseRescheduled', data: { autoReleaseAt: null, rescheduledAt: LATER } }]).autoReleaseAt).toBeUndefined();
    escrow(funded).when(reschedule(at(LATER, -1))).thenThrows(AutoReleaseNotAhead);
    escrow([withAuto]).when(reschedule(moved)).thenThrows(EscrowNotFunded);
    escrow(funded).when({ ...reschedule(moved), data: { ...reschedule(moved).data, merchantId: 'someone-else' } } as EscrowCommand).thenThrows(EscrowNotFound);
  });
});

describe('Escrow disputes', () => {
  const funded = [escrowCreated(), escrowFunded()];

  it('freezes one allocation: it cannot be released, refunded or cancelled, the others can', () => {
    escrow(funded).when(dispute('m-1')).then([disputeOpened(['m-1'])]);
    const disputed = [...funded, disputeOpened(['m-1'])];
    const state = stateAfter(disputed);
    expect(state.status).toBe('DISPUTED');
    expect(state.allocations.map((a) => [a.merchantId, a.status, a.frozen])).toEqual([
      ['m-1', 'DISPUTED', 10_000],
      ['m-2', 'HELD', 0],
    ]);
    expect([heldAmount(state), frozenAmount(state)]).toEqual([12_500, 10_000]);
    escrow(disputed).when(releaseAllocation({ merchantId: 'm-1' })).thenThrows(AllocationDisputed);
    escrow(disputed).when(cancelEscrow()).thenThrows(AllocationDisputed);
    escrow(disputed).when(dispute('m-1')).thenThrows(AllocationDisputed);
    escrow(disputed).when(releaseAllocation({ merchantId: 'm-2' })).then([allocationReleased({ merchantId: 'm-2', amount: santim(12_500) })]);
  });

  it('without a merchant, freezes every allocation that holds money; the automatic release passes them by', () => {
    const withAuto = [escrowCreated({ autoReleaseAt: at(EXPIRES_AT, 60) }), escrowFunded(), allocationReleased({ merchantId: 'm-2', amount: santim(12_500) })];
    escrow(withAuto).when(dispute()).then([disputeOpened(['m-1'])]);
    escrow([...withAuto, disputeOpened(['m-1'])]).when(releaseDue(at(EXPIRES_AT, 61))).then([]);
    escrow([escrowCreated()]).when(dispute()).thenThrows(EscrowNotFunded);
  });

  it('a resolution splits what was frozen: released to the merchant, refunded to the customer, in one append', () => {
    const disputed = [...funded, disputeOpened(['m-1'])];
    escrow(disputed)
      .when(resolve([{ release: 6_000, refund: 4_000 }]))
      .then([
        { type: 'DisputeResolved', data: { resolutions: [{ merchantId: 'm-1', release: santim(6_000), refund: santim(4_000) }], note: 'half each', resolvedAt: LATER } },
        allocationReleased({ merchantId: 'm-1', amount: santim(6_000) }),
        {
          type: 'EscrowRefundRequested',
          data: {
            refundId: refundId(1),
            amount: santim(4_000),
            merchantIds: ['m-1'],
            reason: 'REQUESTED',
            allocations: [{ merchantId: 'm-1', amount: santim(4_000) }],
            note: 'half each',
            paymentReferenceId: 'pay-1',
            requestedAt: LATER,
          },
        },
      ]);
    escrow(disputed)
      .when(resolve([{ release: 6_000, refund: 4_000 }]))
      .thenState({ status: 'PARTIALLY_RELEASED', allocations: [{ merchantId: 'm-1', status: 'REFUND_PENDING', released: 6_000, refunded: 4_000, frozen: 0 }, { merchantId: 'm-2' }] });
  });

  it('refuses a split that does not add up to what was frozen, and an allocation not in dispute', () => {
    const disputed = [...funded, disputeOpened(['m-1'])];
    escrow(disputed).when(resolve([{ release: 6_000, refund: 3_999 }])).thenThrows(DisputeSplitMismatch);
    escrow(disputed).when(resolve([{ merchantId: 'm-2', release: 12_500, refund: 0 }])).thenThrows(AllocationNotDisputed);
    escrow(funded).when(resolve([{ release: 0, refund: 0 }])).thenThrows(AllocationNotDisputed);
    // Several disputed: an unnamed split is ambiguous.
    escrow([...funded, disputeOpened(['m-1', 'm-2'])]).when(resolve([{ release: 10_000, refund: 0 }])).thenThrows(AllocationNotDisputed);
  });
});
