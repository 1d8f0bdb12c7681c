import { fold } from '../shared/decider';
import { santim } from '../shared/money';
import { given } from '../testing/given';
import { createEscrow, escrowCreated } from '../testing/escrow.fixtures';
import { escrowDecider } from './escrow.decider';
import { escrowOutline } from './escrow.outline';
import { upcastEscrowCreated } from './escrow.upcast';
import type { EscrowEvent } from './escrow.events';

const SELLER = `acct_${'a'.repeat(32)}`;
const accountsOf = (history: EscrowEvent[]) => escrowOutline(fold(escrowDecider, history))!.allocations.map((a) => [a.merchantId, a.account]);

describe("an escrow's record of which payees are its creator's accounts", () => {
  it('is written on every allocation at creation, as the create handler resolved the payees', () => {
    const request = escrowCreated({
      allocations: [
        { merchantId: SELLER, amount: santim(10_000), account: true },
        { merchantId: 'mer_linked', amount: santim(12_500), account: false },
      ],
    }).data;
    given(escrowDecider, []).when(createEscrow(request)).then([escrowCreated({ allocations: request.allocations })]);
  });

  it("is what a new escrow's allocations say, whatever their ids look like", () => {
    const created = escrowCreated({
      allocations: [
        { merchantId: SELLER, amount: santim(10_000), account: false },
        { merchantId: 'shop-7', amount: santim(12_500), account: true },
      ],
    });
    expect(upcastEscrowCreated(created.data)).toEqual(created.data);
    expect(accountsOf([created])).toEqual([
      [SELLER, false],
      ['shop-7', true],
    ]);
  });

  it("is read from the payees' ids for an escrow created before it was recorded: an account's id is an account, nothing else is", () => {
    const old = escrowCreated({
      allocations: [
        { merchantId: SELLER, amount: santim(10_000) },
        { merchantId: 'mer_1', amount: santim(5_000) },
        { merchantId: 'acct_not-made-by-us', amount: santim(7_500) },
      ],
    });
    const stored = structuredClone(old);
    expect(upcastEscrowCreated(old.data).allocations.map((a) => a.account)).toEqual([true, false, false]);
    expect(accountsOf([old])).toEqual([
      [SELLER, true],
      ['mer_1', false],
      ['acct_not-made-by-us', false],
    ]);
    expect(old).toEqual(stored);
  });
});
