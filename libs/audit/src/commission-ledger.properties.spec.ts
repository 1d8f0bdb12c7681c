import fc from 'fast-check';
import {
  type AppliedCommission,
  type CommissionChanged,
  commissionDecider,
  commissionFor,
  type CommissionRule,
  type CommissionState,
  DomainError,
  type EscrowCommand,
  escrowDecider,
  type EscrowEvent,
  fold,
  type Santim,
  santim,
} from '@app/domain';
import { escrowCreated, DURING_WINDOW, LATER, OWNER } from '../../domain/src/testing/escrow.fixtures';
import { ACCOUNTS, isDebitNormal, journalFor } from './ledger-rules';

/**
 * Commission rules across a sequence of escrows (docs/guides/marketplaces.md#commission-rules): the
 * platform changes its default and its sellers' overrides between escrows; each allocation with no fee
 * takes the rule in force at its escrow's creation, each with a fee keeps it; the allocations are then
 * released or refunded. Whatever the rules and the order, the ledger's trial balance is zero, every
 * escrow's account ends empty, the platform earns exactly the fees of what was released, and each
 * seller exactly the rest.
 */
const SELLERS = ['acct_s1', 'acct_s2', 'acct_s3'];

const aRule: fc.Arbitrary<CommissionRule> = fc
  .record({ basisPoints: fc.integer({ min: 0, max: 10_000 }), flat: fc.integer({ min: 0, max: 2_000 }).map(santim), minimum: fc.integer({ min: 0, max: 5_000 }).map(santim) }, { requiredKeys: ['basisPoints'] });

/** Before an escrow: a new default, a seller's override set or removed, or nothing. */
const aChange = fc.oneof(
  fc.record({ kind: fc.constant('default' as const), rule: fc.option(aRule) }),
  fc.record({ kind: fc.constant('override' as const), seller: fc.constantFrom(...SELLERS), rule: fc.option(aRule) }),
  fc.constant({ kind: 'none' as const }),
);

const anAllocation = fc.record({
  payee: fc.constantFrom(OWNER, ...SELLERS),
  amount: fc.integer({ min: 1, max: 10_000_000 }),
  /** A named fee, as a share of the amount (null: none named, the rule computes it). */
  feeShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
  refund: fc.boolean(),
});

const anEscrow = fc.record({ change: aChange, allocations: fc.uniqueArray(anAllocation, { minLength: 1, maxLength: 4, selector: (a) => a.payee }) });

describe('commission fees across escrows and rule changes', () => {
  it('neither creates nor loses a santim: trial balance zero, escrows empty, fee + net = gross for every seller', () => {
    fc.assert(
      fc.property(fc.array(anEscrow, { minLength: 1, maxLength: 8 }), (escrows) => {
        const rules = new Map<string, CommissionState>();
        const change = (key: string, accountId: string | undefined, rule: CommissionRule | null) => {
          const state = rules.get(key) ?? commissionDecider.initialState();
          const data = { platformId: OWNER, ...(accountId ? { accountId } : {}), at: LATER };
          const events: CommissionChanged[] = commissionDecider.decide(rule ? { type: 'SetCommission', data: { ...data, rule } } : { type: 'RemoveCommission', data }, state);
          rules.set(key, events.reduce(commissionDecider.evolve, state));
        };
        const balances = new Map<string, number>();
        const expected = new Map<string, number>();
        const add = (map: Map<string, number>, key: string, amount: number) => map.set(key, (map.get(key) ?? 0) + amount);

        escrows.forEach(({ change: before, allocations }, n) => {
          if (before.kind === 'default') change(OWNER, undefined, before.rule);
          if (before.kind === 'override') change(before.seller, before.seller, before.rule);
          const escrowId = `esc_${n}`;
          const platform = rules.get(OWNER) ?? commissionDecider.initialState();
          const terms = allocations.map((a) => {
            const fee = a.feeShare === null ? undefined : santim(Math.floor(a.amount * a.feeShare));
            const commission: AppliedCommission | undefined = fee === undefined && a.payee !== OWNER ? commissionFor(OWNER, platform, rules.get(a.payee)) : undefined;
            return { merchantId: a.payee, amount: santim(a.amount), ...(fee === undefined ? {} : { fee }), ...(commission ? { commission } : {}) };
          });
          const amount = santim(terms.reduce((sum, t) => sum + t.amount, 0));
          const history: EscrowEvent[] = [];
          const run = (command: EscrowCommand) => history.push(...escrowDecider.decide(command, fold(escrowDecider, history)));
          run({ type: 'CreateEscrow', data: escrowCreated({ escrowId, amount, allocations: terms, items: [{ productId: 'p', itemName: 'Goods', quantity: 1, unitPrice: amount }] }).data });
          run({ type: 'RecordPayment', data: { externalReferenceId: `pay-${n}`, paymentType: 'telebirr', amount, at: DURING_WINDOW } });
          for (const a of allocations) {
            try {
              run(
                a.refund
                  ? { type: 'RefundFunds', data: { escrowId, merchantId: OWNER, refunds: [{ merchantId: a.payee }], note: 'out of stock', at: LATER } }
                  : { type: 'ReleaseFunds', data: { escrowId, merchantId: OWNER, releases: [{ merchantId: a.payee }], at: LATER } },
              );
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              throw new Error(`a release or refund of a held allocation was refused: ${error.message}`);
            }
          }
          // What the rule computed is what the event keeps, and never more than the allocation.
          const created = history[0].type === 'EscrowCreated' ? history[0].data : undefined;
          for (const [i, allocation] of created!.allocations.entries()) {
            expect(allocation.fee ?? 0).toBeLessThanOrEqual(allocation.amount);
            if (terms[i].fee !== undefined) expect([allocation.fee, allocation.commission]).toEqual([terms[i].fee, undefined]);
            const fee = (allocation.fee ?? 0) as Santim;
            if (!allocations[i].refund) {
              add(expected, ACCOUNTS.merchantFees(OWNER), fee);
              add(expected, ACCOUNTS.merchantPayable(allocation.merchantId), allocation.amount - fee);
            }
          }
          for (const event of history) {
            const entry = journalFor(event.type, event.data as unknown as Record<string, unknown>, { id: escrowId, creatorMerchantId: OWNER, mode: 'live' });
            for (const line of entry?.lines ?? []) add(balances, line.account, isDebitNormal(line.account) ? line.debit - line.credit : line.credit - line.debit);
            const debits = entry?.lines.reduce((sum, l) => sum + l.debit, 0) ?? 0;
            expect(entry?.lines.reduce((sum, l) => sum + l.credit, 0) ?? 0).toBe(debits);
          }
          expect(balances.get(ACCOUNTS.escrow(escrowId))).toBe(0);
        });

        // Trial balance: what came in through clearing is in payables, fees and refunds, to the santim.
        const signed = [...balances].reduce((sum, [account, balance]) => sum + (isDebitNormal(account) ? balance : -balance), 0);
        expect(signed).toBe(0);
        for (const [account, amount] of expected) expect(balances.get(account) ?? 0).toBe(amount);
      }),
      { numRuns: 150 },
    );
  });
});
