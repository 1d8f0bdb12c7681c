import { merchantPrincipal } from '../authority/principal';
import { accountIdFor } from '../ids';
import { fold } from '../shared/decider';
import { santim } from '../shared/money';
import { given } from '../testing/given';
import { allocationReleased, ESCROW_ID, escrowCreated, escrowFunded, LATER, OWNER, releaseAllocation } from '../testing/escrow.fixtures';
import { AllocationNotFound } from './escrow.errors';
import type { EscrowEvent } from './escrow.events';
import { escrowDeciderFor } from './escrow.references';

const SALT = 'salt-1';
const shop = accountIdFor(SALT, { reference: 'shop-7' });

/** The platform's escrow, paid: 100 ETB to its account created with reference shop-7, 125 ETB to the registered merchant m-2. */
const paid: EscrowEvent[] = [
  escrowCreated({
    allocations: [
      { merchantId: shop, amount: santim(10_000) },
      { merchantId: 'm-2', amount: santim(12_500) },
    ],
  }),
  escrowFunded(),
];

describe('an escrow command of its creator, naming an account by the reference it was created with', () => {
  const decider = escrowDeciderFor(merchantPrincipal(OWNER), SALT);

  it('releases the allocation stored under the accountId', () => {
    given(decider, paid)
      .when(releaseAllocation({ merchantId: 'shop-7' }))
      .then([allocationReleased({ merchantId: shop, amount: santim(10_000) })]);
  });

  it('keeps an id that names an allocation as stored: the accountId itself, or a merchant', () => {
    given(decider, paid)
      .when(releaseAllocation({ merchantId: shop }))
      .then([allocationReleased({ merchantId: shop, amount: santim(10_000) })]);
    given(decider, paid)
      .when(releaseAllocation({ merchantId: 'm-2' }))
      .then([allocationReleased({ merchantId: 'm-2', amount: santim(12_500) })]);
  });

  it("refuses another platform's reference (another salt) by the id given", () => {
    given(escrowDeciderFor(merchantPrincipal(OWNER), 'salt-2'), paid)
      .when(releaseAllocation({ merchantId: 'shop-7' }))
      .thenThrows(new AllocationNotFound('shop-7'));
  });

  it('disputes, refunds and reverses by the reference too, each event naming the accountId', () => {
    const base = { escrowId: ESCROW_ID, merchantId: OWNER, at: LATER };
    given(decider, paid)
      .when({ type: 'OpenDispute', data: { ...base, allocation: 'shop-7', reason: 'Not delivered' } })
      .then([{ type: 'DisputeOpened', data: { merchantIds: [shop], reason: 'Not delivered', openedAt: LATER } }]);
    const refunded = decider.decide({ type: 'RefundFunds', data: { ...base, refunds: [{ merchantId: 'shop-7', amount: santim(1_000) }], note: 'Partial' } }, fold(decider, paid));
    expect(JSON.stringify(refunded)).toContain(shop);
    expect(JSON.stringify(refunded)).not.toContain('shop-7');
    const released = [...paid, allocationReleased({ merchantId: shop, amount: santim(10_000) })];
    const reversed = decider.decide({ type: 'ReverseAllocation', data: { ...base, allocation: 'shop-7', reason: 'Returned', refundFee: false } }, fold(decider, released));
    expect(JSON.stringify(reversed)).toContain(shop);
    expect(JSON.stringify(reversed)).not.toContain('shop-7');
  });
});
