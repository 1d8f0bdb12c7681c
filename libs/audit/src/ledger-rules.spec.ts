import fc from 'fast-check';
import { DomainError, fold, type Santim, santim, type TransferCommand, transferDecider, type TransferEvent } from '@app/domain';
import { ACCOUNTS, booksAccountMode, isDebitNormal, type JournalEntry, journalFor, payoutAccounts, refundCompletionEntry } from './ledger-rules';

const AMOUNT = santim(100_050);

function balanced(entry: JournalEntry) {
  const debits = entry.lines.reduce((sum, line) => sum + line.debit, 0);
  const credits = entry.lines.reduce((sum, line) => sum + line.credit, 0);
  expect(debits).toBe(credits);
  expect(debits).toBeGreaterThan(0);
  for (const line of entry.lines) {
    // A line is a debit or a credit, never both.
    expect(line.debit === 0 || line.credit === 0).toBe(true);
    expect(Number.isInteger(line.debit) && Number.isInteger(line.credit)).toBe(true);
  }
}

const postings = (entry: JournalEntry | undefined) => entry?.lines.map((l) => ({ account: l.account, debit: l.debit, credit: l.credit }));

describe('journalFor (docs/concepts/ledger.md)', () => {
  it('OrderPaid: Dr provider:clearing / Cr merchant:{order merchant}:payable', () => {
    const entry = journalFor('OrderPaid', { amount: AMOUNT, externalReferenceId: 'x' }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'm_1' });
    expect(postings(entry)).toEqual([
      { account: 'provider:clearing', debit: AMOUNT, credit: 0 },
      { account: 'merchant:m_1:payable', debit: 0, credit: AMOUNT },
    ]);
    balanced(entry!);
  });

  it('EscrowFunded: Dr provider:clearing / Cr escrow:{escrowId}', () => {
    const entry = journalFor('EscrowFunded', { amount: AMOUNT }, { mode: 'live', id: 'esc_1' });
    expect(postings(entry)).toEqual([
      { account: 'provider:clearing', debit: AMOUNT, credit: 0 },
      { account: 'escrow:esc_1', debit: 0, credit: AMOUNT },
    ]);
    balanced(entry!);
  });

  it("AllocationReleased: Dr escrow:{id} / Cr merchant:{the allocation's merchant}:payable", () => {
    const entry = journalFor('AllocationReleased', { merchantId: 'seller-1', amount: santim(60_050) }, { mode: 'live', id: 'esc_1', creatorMerchantId: 'ignored' });
    expect(postings(entry)).toEqual([
      { account: 'escrow:esc_1', debit: 60_050, credit: 0 },
      { account: 'merchant:seller-1:payable', debit: 0, credit: 60_050 },
    ]);
    expect(entry!.description).toContain('seller-1');
    balanced(entry!);
  });

  it("a reversal (money already released, taken back): Dr the allocation merchant's payable, and the creator's fees for the fee it gives back / Cr customer:refunds", () => {
    const data = { amount: santim(4_000), merchantIds: ['seller-1'], reason: 'REVERSED', allocations: [{ merchantId: 'seller-1', amount: santim(4_000) }] };
    const withoutFee = journalFor('EscrowRefundRequested', data, { mode: 'live', id: 'esc_1', creatorMerchantId: 'platform' });
    expect(postings(withoutFee)).toEqual([
      { account: 'merchant:seller-1:payable', debit: 4_000, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: 4_000 },
    ]);
    balanced(withoutFee!);
    const withFee = journalFor('EscrowRefundRequested', { ...data, feeReturned: santim(400) }, { mode: 'live', id: 'esc_1', creatorMerchantId: 'platform' });
    expect(postings(withFee)).toEqual([
      { account: 'merchant:seller-1:payable', debit: 3_600, credit: 0 },
      { account: 'merchant:platform:fees', debit: 400, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: 4_000 },
    ]);
    balanced(withFee!);
  });

  it('OrderRefundRequested on the merchant\'s request: Dr merchant:{id}:payable / Cr customer:refunds; a refused payment\'s: from clearing', () => {
    const requested = journalFor('OrderRefundRequested', { amount: AMOUNT, reason: 'REQUESTED', refundId: 'r1' }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'mer_1' });
    expect(postings(requested)).toEqual([
      { account: 'merchant:mer_1:payable', debit: AMOUNT, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: AMOUNT },
    ]);
    const refused = journalFor('OrderRefundRequested', { amount: AMOUNT, refundId: 'r1' }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'mer_1' });
    expect(postings(refused)?.[0]).toEqual({ account: 'provider:clearing', debit: AMOUNT, credit: 0 });
  });

  it("a plain order's fee: OrderPaid credits it to merchant:{id}:fees and the rest to the payable; a refund takes back the part its event names", () => {
    const paid = journalFor('OrderPaid', { amount: AMOUNT }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'mer_1', orderFee: santim(2_500) });
    expect(postings(paid)).toEqual([
      { account: 'provider:clearing', debit: AMOUNT, credit: 0 },
      { account: 'merchant:mer_1:payable', debit: 0, credit: AMOUNT - 2_500 },
      { account: 'merchant:mer_1:fees', debit: 0, credit: 2_500 },
    ]);
    balanced(paid!);
    const refund = journalFor('OrderRefundRequested', { amount: santim(10_000), fee: santim(249), reason: 'REQUESTED', refundId: 'r1' }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'mer_1' });
    expect(postings(refund)).toEqual([
      { account: 'merchant:mer_1:payable', debit: 9_751, credit: 0 },
      { account: 'merchant:mer_1:fees', debit: 249, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: 10_000 },
    ]);
    balanced(refund!);
  });

  it.each(['CANCELLED', 'REQUESTED'])('EscrowRefundRequested (%s: the escrow\'s own money): Dr escrow:{id} / Cr customer:refunds', (reason) => {
    const entry = journalFor('EscrowRefundRequested', { amount: AMOUNT, reason, refundId: 'r1' }, { mode: 'live', id: 'esc_1' });
    expect(postings(entry)).toEqual([
      { account: 'escrow:esc_1', debit: AMOUNT, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: AMOUNT },
    ]);
    balanced(entry!);
  });

  it.each(['EXPIRED', 'AMOUNT_MISMATCH', 'HELD', 'RELEASED'])(
    'EscrowRefundRequested for a refused payment (%s) never touches the escrow: Dr provider:clearing / Cr customer:refunds',
    (reason) => {
      const entry = journalFor('EscrowRefundRequested', { amount: AMOUNT, reason }, { mode: 'live', id: 'esc_1' });
      expect(postings(entry)).toEqual([
        { account: 'provider:clearing', debit: AMOUNT, credit: 0 },
        { account: 'customer:refunds', debit: 0, credit: AMOUNT },
      ]);
      balanced(entry!);
    },
  );

  it('OrderRefundRequested: Dr provider:clearing / Cr customer:refunds', () => {
    const entry = journalFor('OrderRefundRequested', { amount: AMOUNT, reason: 'EXPIRED' }, { mode: 'live', id: 'ord_1', creatorMerchantId: 'm_1' });
    expect(postings(entry)).toEqual([
      { account: 'provider:clearing', debit: AMOUNT, credit: 0 },
      { account: 'customer:refunds', debit: 0, credit: AMOUNT },
    ]);
    balanced(entry!);
  });

  it('refund completion: Dr customer:refunds / Cr provider:clearing, for the amount of the refund', () => {
    const entry = refundCompletionEntry(AMOUNT, 'live');
    expect(postings(entry)).toEqual([
      { account: 'customer:refunds', debit: AMOUNT, credit: 0 },
      { account: 'provider:clearing', debit: 0, credit: AMOUNT },
    ]);
    balanced(entry);
  });

  it.each([
    'EscrowCreated',
    'EscrowPaymentInitiated',
    'EscrowPaymentFailed',
    'EscrowExpired',
    'EscrowCancelled',
    'EscrowRefundFailed',
    'EscrowRefundCompleted',
    'OrderCreated',
    'OrderRefundCompleted',
    'MerchantRegistered',
    'AuditorRegistered',
    'SomethingNobodyKnows',
  ])('%s calls for no journal entry (undefined)', (type) => {
    expect(journalFor(type, { amount: AMOUNT, merchantId: 'seller-1', reason: 'CANCELLED' }, { mode: 'live', id: 'x', creatorMerchantId: 'm_1' })).toBeUndefined();
  });

  it('a payout: Dr merchant payable / Cr payouts:in-transit, then Dr in-transit / Cr provider:clearing when paid, or back to the payable when failed', () => {
    const data = { merchantId: 'seller-1', payoutId: 'po_1', amount: AMOUNT };
    expect(postings(journalFor('PayoutRequested', data, { mode: 'live', id: 'seller-1' }))).toEqual([
      { account: 'merchant:seller-1:payable', debit: AMOUNT, credit: 0 },
      { account: 'payouts:in-transit', debit: 0, credit: AMOUNT },
    ]);
    expect(postings(journalFor('PayoutPaid', data, { mode: 'live', id: 'seller-1' }))).toEqual([
      { account: 'payouts:in-transit', debit: AMOUNT, credit: 0 },
      { account: 'provider:clearing', debit: 0, credit: AMOUNT },
    ]);
    expect(postings(journalFor('PayoutFailed', data, { mode: 'live', id: 'seller-1' }))).toEqual([
      { account: 'payouts:in-transit', debit: AMOUNT, credit: 0 },
      { account: 'merchant:seller-1:payable', debit: 0, credit: AMOUNT },
    ]);
    expect(journalFor('PayoutSent', data, { mode: 'live', id: 'seller-1' })).toBeUndefined();
  });

  it("a payout with fees takes its fees part from the merchant's fees account and gives each part back to its account when it fails", () => {
    const data = { merchantId: 'm_p', payoutId: 'po_2', amount: santim(1_000), fees: 300 };
    expect(postings(journalFor('PayoutRequested', data, { mode: 'live', id: 'm_p' }))).toEqual([
      { account: 'merchant:m_p:payable', debit: 700, credit: 0 },
      { account: 'merchant:m_p:fees', debit: 300, credit: 0 },
      { account: 'payouts:in-transit', debit: 0, credit: 1_000 },
    ]);
    expect(postings(journalFor('PayoutFailed', data, { mode: 'live', id: 'm_p' }))).toEqual([
      { account: 'payouts:in-transit', debit: 1_000, credit: 0 },
      { account: 'merchant:m_p:payable', debit: 0, credit: 700 },
      { account: 'merchant:m_p:fees', debit: 0, credit: 300 },
    ]);
    // A payable below zero that the fees cover: the payout takes both balances whole, leaving each at zero.
    expect(postings(journalFor('PayoutRequested', { ...data, amount: santim(400), fees: 500 }, { mode: 'live', id: 'm_p' }))).toEqual([
      { account: 'merchant:m_p:fees', debit: 500, credit: 0 },
      { account: 'merchant:m_p:payable', debit: 0, credit: 100 },
      { account: 'payouts:in-transit', debit: 0, credit: 400 },
    ]);
    expect(postings(journalFor('PayoutFailed', { ...data, amount: santim(400), fees: 500 }, { mode: 'live', id: 'm_p' }))).toEqual([
      { account: 'merchant:m_p:payable', debit: 100, credit: 0 },
      { account: 'payouts:in-transit', debit: 400, credit: 0 },
      { account: 'merchant:m_p:fees', debit: 0, credit: 500 },
    ]);
    expect(payoutAccounts('m_p')).toEqual(['merchant:m_p:payable', 'merchant:m_p:fees']);
  });

  it('a transfer: Dr the source payable / Cr the destination payable, each line worded for its side; a reversal the other way', () => {
    const terms = { transferId: 'tr_1', source: 'm_platform', destination: 'seller-1', description: 'Goodwill bonus' };
    const created = journalFor('TransferCreated', { ...terms, amount: AMOUNT }, { mode: 'live', id: 'tr_1' })!;
    expect(created.description).toBe('Transfer tr_1 from m_platform to seller-1');
    expect(created.lines).toEqual([
      { account: 'merchant:m_platform:payable', debit: AMOUNT, credit: 0, memo: 'Transfer to seller-1: Goodwill bonus' },
      { account: 'merchant:seller-1:payable', debit: 0, credit: AMOUNT, memo: 'Transfer from m_platform: Goodwill bonus' },
    ]);
    const back = journalFor('TransferReversed', { ...terms, reversalId: 'tr_1-reversal-1', amount: santim(400) }, { mode: 'live', id: 'tr_1' })!;
    expect(back.lines).toEqual([
      { account: 'merchant:seller-1:payable', debit: 400, credit: 0, memo: 'Transfer from m_platform reversed' },
      { account: 'merchant:m_platform:payable', debit: 0, credit: 400, memo: 'Transfer to seller-1 reversed' },
    ]);
    balanced(created);
    balanced(back);
  });

  it('transfers, property: after any sequence of transfers and reversals each payable in the ledger holds what the decisions moved, and all of them together what they held', () => {
    const parties = ['m_platform', 'm_a', 'm_b'];
    type Step = { create: true; other: number; to: boolean; amount: number; allowNegative: boolean } | { create: false; transfer: number; amount?: number };
    const aStep: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ create: fc.constant(true as const), other: fc.integer({ min: 1, max: 2 }), to: fc.boolean(), amount: fc.integer({ min: 1, max: 9_000 }), allowNegative: fc.boolean() }),
      fc.record({ create: fc.constant(false as const), transfer: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 9_000 }), { nil: undefined }) }),
    );
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 30 }), (steps) => {
        // The ledger: every entry the events call for, posted; the decisions' own view: what each transfer moved and kept.
        const ledger = new Map<string, number>();
        const post = (entry: JournalEntry) => {
          for (const line of entry.lines) ledger.set(line.account, (ledger.get(line.account) ?? 0) + line.credit - line.debit);
        };
        const available = (merchantId: string) => ledger.get(ACCOUNTS.merchantPayable(merchantId)) ?? 0;
        const histories: TransferEvent[][] = [];
        for (const step of steps) {
          let history: TransferEvent[];
          let command: TransferCommand;
          if (step.create) {
            const [source, destination] = step.to ? [parties[0], parties[step.other]] : [parties[step.other], parties[0]];
            const transferId = `tr_${histories.length}`;
            histories.push((history = []));
            command = { type: 'CreateTransfer', data: { transferId, platformId: parties[0], source, destination, amount: santim(step.amount), description: 'x', allowNegative: step.allowNegative, callbackUrl: null, sourceAvailable: available(source), at: 'now' } };
          } else {
            if (histories.length === 0) continue;
            history = histories[step.transfer % histories.length];
            if (history.length === 0) continue;
            const first = history[0] as Extract<TransferEvent, { type: 'TransferCreated' }>;
            command = { type: 'ReverseTransfer', data: { transferId: first.data.transferId, platformId: parties[0], ...(step.amount !== undefined ? { amount: santim(step.amount) } : {}), at: 'now', callbackUrl: null } };
          }
          try {
            for (const event of transferDecider.decide(command, fold(transferDecider, history))) {
              const entry = journalFor(event.type, event.data as unknown as Record<string, unknown>, { mode: 'live', id: 'x' })!;
              balanced(entry);
              post(entry);
              history.push(event);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
          }
        }
        for (const merchantId of parties) {
          let kept = 0;
          for (const history of histories) {
            const state = fold(transferDecider, history);
            if (!state.created) continue;
            expect(state.reversed).toBeLessThanOrEqual(state.created.amount);
            if (state.created.destination === merchantId) kept += state.created.amount - state.reversed;
            if (state.created.source === merchantId) kept -= state.created.amount - state.reversed;
          }
          expect(available(merchantId)).toBe(kept);
        }
        expect([...ledger.values()].reduce((a, b) => a + b, 0)).toBe(0);
      }),
    );
  });

  it('every entry is balanced in integer santim whatever the amount', () => {
    for (const amount of [1, 2, 99, 100, 12_345_678, 100_000_000_000] as Santim[]) {
      for (const [type, data] of [
        ['OrderPaid', { amount }],
        ['EscrowFunded', { amount }],
        ['AllocationReleased', { amount, merchantId: 's' }],
        ['EscrowRefundRequested', { amount, reason: 'CANCELLED' }],
        ['EscrowRefundRequested', { amount, reason: 'EXPIRED' }],
        ['OrderRefundRequested', { amount }],
        ['PayoutRequested', { amount, merchantId: 's' }],
        ['PayoutPaid', { amount, merchantId: 's' }],
        ['PayoutFailed', { amount, merchantId: 's' }],
        ['TransferCreated', { amount, transferId: 't', source: 's', destination: 'm', description: 'x' }],
        ['TransferReversed', { amount, transferId: 't', source: 's', destination: 'm' }],
      ] as const) {
        balanced(journalFor(type, data, { mode: 'live', id: 'e', creatorMerchantId: 'm' })!);
      }
      balanced(refundCompletionEntry(amount, 'live'));
    }
  });

  it('names accounts as docs/concepts/ledger.md does: the books\' own once per mode, live\'s as before modes, test\'s after test:', () => {
    expect([ACCOUNTS.providerClearing('live'), ACCOUNTS.providerClearing('test')]).toEqual(['provider:clearing', 'test:provider:clearing']);
    expect([ACCOUNTS.customerRefunds('live'), ACCOUNTS.customerRefunds('test')]).toEqual(['customer:refunds', 'test:customer:refunds']);
    expect([ACCOUNTS.payoutsInTransit('live'), ACCOUNTS.payoutsInTransit('test')]).toEqual(['payouts:in-transit', 'test:payouts:in-transit']);
    expect(ACCOUNTS.escrow('esc_9')).toBe('escrow:esc_9');
    expect(ACCOUNTS.merchantPayable('m_9')).toBe('merchant:m_9:payable');
  });

  it("posts a test tenant's money to test mode's own accounts, and its tenant's accounts as in live", () => {
    expect(postings(journalFor('OrderPaid', { amount: AMOUNT }, { mode: 'test', id: 'ord_1', creatorMerchantId: 'm_t' }))).toEqual([
      { account: 'test:provider:clearing', debit: AMOUNT, credit: 0 },
      { account: 'merchant:m_t:payable', debit: 0, credit: AMOUNT },
    ]);
    expect(postings(journalFor('PayoutPaid', { amount: AMOUNT, merchantId: 'm_t' }, { mode: 'test', id: 'po_1' }))).toEqual([
      { account: 'test:payouts:in-transit', debit: AMOUNT, credit: 0 },
      { account: 'test:provider:clearing', debit: 0, credit: AMOUNT },
    ]);
    expect(postings(refundCompletionEntry(AMOUNT, 'test'))).toEqual([
      { account: 'test:customer:refunds', debit: AMOUNT, credit: 0 },
      { account: 'test:provider:clearing', debit: 0, credit: AMOUNT },
    ]);
  });
});

describe('booksAccountMode', () => {
  it("says the mode of the books' own accounts by their names, and nothing of a tenant's", () => {
    expect(['provider:clearing', 'test:provider:clearing', 'test:payouts:in-transit', 'customer:refunds'].map(booksAccountMode)).toEqual(['live', 'test', 'test', 'live']);
    expect(['merchant:m_1:payable', 'escrow:esc_1', 'test:merchant:m_1:payable'].map(booksAccountMode)).toEqual([undefined, undefined, undefined]);
  });
});

describe('isDebitNormal', () => {
  it('provider accounts (money the provider holds for us) are debit-normal, in either mode', () => {
    expect(isDebitNormal('provider:clearing')).toBe(true);
    expect(isDebitNormal('test:provider:clearing')).toBe(true);
  });

  it.each(['escrow:esc_1', 'merchant:m_1:payable', 'customer:refunds', 'test:customer:refunds'])('%s (what we owe) is credit-normal', (account) => {
    expect(isDebitNormal(account)).toBe(false);
  });
});
