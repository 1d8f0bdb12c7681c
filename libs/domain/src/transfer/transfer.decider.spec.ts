import fc from 'fast-check';
import { AccountIsClosed } from '../account/account-closing';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { santim } from '../shared/money';
import { given } from '../testing/given';
import { reversibleOf, transferDecider, transferDirection } from './transfer.decider';
import {
  InsufficientAvailableBalance,
  NegativeOnlyForPenalty,
  TransferAmountExceedsReversible,
  TransferFullyReversed,
  TransferNotFound,
  TransferToItself,
} from './transfer.errors';
import type { TransferCommand, TransferEvent } from './transfer.events';

const AT = '2026-11-20T09:00:00.000Z';
const LATER = '2026-11-21T09:00:00.000Z';
const PLATFORM = 'm_platform';
const SELLER = 'm_seller';

const create = (data: { source?: string; destination?: string; amount: number; available: number; allowNegative?: boolean; sourceClosed?: boolean }): TransferCommand => ({
  type: 'CreateTransfer',
  data: {
    transferId: 'tr_1',
    platformId: PLATFORM,
    source: data.source ?? PLATFORM,
    destination: data.destination ?? SELLER,
    amount: santim(data.amount),
    description: 'Goodwill bonus',
    allowNegative: data.allowNegative ?? false,
    callbackUrl: null,
    sourceAvailable: data.available,
    ...(data.sourceClosed ? { sourceClosed: true } : {}),
    at: AT,
  },
});

const created = (data: { source?: string; destination?: string; amount: number; allowNegative?: boolean }): TransferEvent => ({
  type: 'TransferCreated',
  data: {
    transferId: 'tr_1',
    platformId: PLATFORM,
    source: data.source ?? PLATFORM,
    destination: data.destination ?? SELLER,
    amount: santim(data.amount),
    description: 'Goodwill bonus',
    allowNegative: data.allowNegative ?? false,
    callbackUrl: null,
    createdAt: AT,
  },
});

const reverse = (amount?: number, platformId = PLATFORM, closedCounterparty?: { available: number }): TransferCommand => ({
  type: 'ReverseTransfer',
  data: {
    transferId: 'tr_1',
    platformId,
    ...(amount !== undefined ? { amount: santim(amount) } : {}),
    at: LATER,
    callbackUrl: 'https://platform.example/hooks',
    ...(closedCounterparty ? { closedCounterparty } : {}),
  },
});

const reversed = (n: number, amount: number, source = PLATFORM, destination = SELLER): TransferEvent => ({
  type: 'TransferReversed',
  data: { transferId: 'tr_1', reversalId: `tr_1-reversal-${n}`, platformId: PLATFORM, source, destination, amount: santim(amount), reversedAt: LATER, callbackUrl: 'https://platform.example/hooks' },
});

const transfer = (history: TransferEvent[]) => given(transferDecider, history);

describe('Transfers between a platform and another party', () => {
  it('moves available money to the other party', () => {
    transfer([]).when(create({ amount: 5_000, available: 5_000 })).then([created({ amount: 5_000 })]);
  });

  it('refuses what would take the source below zero, a santim short or already negative', () => {
    transfer([]).when(create({ amount: 5_000, available: 4_999 })).thenThrows(InsufficientAvailableBalance);
    transfer([]).when(create({ amount: 1, available: -300 })).thenThrows('-3 ETB available');
    transfer([]).when(create({ source: SELLER, destination: PLATFORM, amount: 2_000, available: 0 })).thenThrows(InsufficientAvailableBalance);
  });

  it('takes a penalty from the other party below zero when the platform allows it, and only a penalty', () => {
    const penalty = { source: SELLER, destination: PLATFORM, amount: 2_000, available: 500, allowNegative: true };
    transfer([]).when(create(penalty)).then([created(penalty)]);
    transfer([]).when(create({ amount: 2_000, available: 5_000, allowNegative: true })).thenThrows(NegativeOnlyForPenalty);
  });

  it('takes from a closed account what it still holds, and refuses a penalty that would take it below zero: nothing could cover that debt', () => {
    const closed = { source: SELLER, destination: PLATFORM, available: 500, sourceClosed: true };
    transfer([]).when(create({ ...closed, amount: 500 })).then([created({ source: SELLER, destination: PLATFORM, amount: 500 })]);
    transfer([]).when(create({ ...closed, amount: 500, allowNegative: true })).then([created({ source: SELLER, destination: PLATFORM, amount: 500, allowNegative: true })]);
    transfer([]).when(create({ ...closed, amount: 501, allowNegative: true })).thenThrows(AccountIsClosed);
    transfer([]).when(create({ ...closed, amount: 501 })).thenThrows(InsufficientAvailableBalance);
  });

  it('property: a closed source never goes below zero, whatever the request says', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 1, max: 20_000 }), fc.boolean(), (available, amount, allowNegative) => {
        try {
          transferDecider.decide(create({ source: SELLER, destination: PLATFORM, amount, available, allowNegative, sourceClosed: true }), transferDecider.initialState());
        } catch (refusal) {
          expect(refusal).toBeInstanceOf(DomainError);
          return;
        }
        expect(available - amount).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('has the platform on exactly one side', () => {
    transfer([]).when(create({ destination: PLATFORM, amount: 1, available: 10 })).thenThrows(TransferToItself);
    transfer([]).when(create({ source: 'm_a', destination: 'm_b', amount: 1, available: 10 })).thenThrows(TransferToItself);
  });

  it('is made once: the same request again (its id derives from the key) finds it made', () => {
    transfer([created({ amount: 5_000 })]).when(create({ amount: 5_000, available: 0 })).thenNothing();
  });

  it('reverses all that is left when no amount is given, back from the destination', () => {
    transfer([created({ amount: 5_000 })]).when(reverse()).then([reversed(1, 5_000)]);
    transfer([created({ amount: 5_000 }), reversed(1, 1_500)]).when(reverse()).then([reversed(2, 3_500)]);
  });

  it('reverses part, then never more than is left, and nothing once all went back', () => {
    const part = [created({ amount: 5_000 }), reversed(1, 1_500)];
    transfer(part).when(reverse(3_501)).thenThrows(TransferAmountExceedsReversible);
    transfer(part).when(reverse(3_500)).thenState({ reversed: 5_000 });
    transfer([...part, reversed(2, 3_500)]).when(reverse()).thenThrows(TransferFullyReversed);
  });

  it('takes back from a closed account what it still holds and no more, and gives a closed account nothing back', () => {
    const toSeller = [created({ amount: 5_000 })];
    transfer(toSeller).when(reverse(2_000, PLATFORM, { available: 2_000 })).then([reversed(1, 2_000)]);
    transfer(toSeller).when(reverse(2_000, PLATFORM, { available: 1_999 })).thenThrows(AccountIsClosed);
    const fromSeller = [created({ source: SELLER, destination: PLATFORM, amount: 5_000 })];
    transfer(fromSeller).when(reverse(1, PLATFORM, { available: 0 })).thenThrows('Account m_seller is closed');
    transfer(fromSeller).when(reverse(1)).then([reversed(1, 1, SELLER, PLATFORM)]);
  });

  it("knows no transfer that was not made, or is another platform's", () => {
    transfer([]).when(reverse()).thenThrows(TransferNotFound);
    transfer([created({ amount: 5_000 })]).when(reverse(undefined, 'm_other')).thenThrows(TransferNotFound);
  });

  it('tells its direction by which side the platform is', () => {
    expect(transferDirection({ platformId: PLATFORM, source: PLATFORM })).toBe('to');
    expect(transferDirection({ platformId: PLATFORM, source: SELLER })).toBe('from');
  });
});

type Step = { kind: 'create'; to: boolean; other: number; amount: number; allowNegative: boolean } | { kind: 'reverse'; transfer: number; amount?: number };

const PARTIES = ['m_a', 'm_b', 'm_c'];

describe('Transfers, property: any sequence of transfers and reversals', () => {
  it('creates or loses nothing, never reverses more than was moved, and takes no source below zero but by a penalty or a reversal', () => {
    const aStep: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), to: fc.boolean(), other: fc.integer({ min: 0, max: PARTIES.length - 1 }), amount: fc.integer({ min: 1, max: 20_000 }), allowNegative: fc.boolean() }),
      fc.record({ kind: fc.constant('reverse' as const), transfer: fc.nat(), amount: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }) }),
    );
    fc.assert(
      fc.property(fc.array(aStep, { maxLength: 40 }), fc.integer({ min: 0, max: 30_000 }), (steps, opening) => {
        // Every party starts with `opening` available; the balances are what the events moved (the ledger's rule: Dr source, Cr destination).
        const balances = new Map<string, number>([[PLATFORM, opening], ...PARTIES.map((p) => [p, opening] as [string, number])]);
        const total = () => [...balances.values()].reduce((a, b) => a + b, 0);
        const start = total();
        const histories: TransferEvent[][] = [];
        const move = (from: string, to: string, amount: number) => {
          balances.set(from, balances.get(from)! - amount);
          balances.set(to, balances.get(to)! + amount);
        };
        for (const step of steps) {
          let history: TransferEvent[];
          let command: TransferCommand;
          if (step.kind === 'create') {
            const other = PARTIES[step.other];
            const [source, destination] = step.to ? [PLATFORM, other] : [other, PLATFORM];
            const transferId = `tr_${histories.length}`;
            histories.push((history = []));
            command = { type: 'CreateTransfer', data: { transferId, platformId: PLATFORM, source, destination, amount: santim(step.amount), description: 'x', allowNegative: step.allowNegative, callbackUrl: null, sourceAvailable: balances.get(source)!, at: AT } };
          } else {
            if (histories.length === 0) continue;
            history = histories[step.transfer % histories.length];
            const transferId = history[0]?.type === 'TransferCreated' ? history[0].data.transferId : 'tr_none';
            command = { type: 'ReverseTransfer', data: { transferId, platformId: PLATFORM, ...(step.amount !== undefined ? { amount: santim(step.amount) } : {}), at: LATER, callbackUrl: null } };
          }
          const before = fold(transferDecider, history);
          let events: TransferEvent[];
          try {
            events = transferDecider.decide(command, before);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            continue;
          }
          for (const event of events) {
            if (event.type === 'TransferCreated') {
              const { source, destination, amount, allowNegative } = event.data;
              move(source, destination, amount);
              if (!allowNegative) expect(balances.get(source)).toBeGreaterThanOrEqual(0);
            } else {
              move(event.data.destination, event.data.source, event.data.amount);
            }
            history.push(event);
          }
          const after = fold(transferDecider, history);
          if (after.created) {
            expect(after.reversed).toBeLessThanOrEqual(after.created.amount);
            expect(reversibleOf(after)).toBe(after.created.amount - after.reversals.reduce((sum, r) => sum + r.amount, 0));
          }
          expect(total()).toBe(start);
        }
        // Each party's balance is its opening plus what transfers net of their reversals brought it.
        for (const [party, balance] of balances) {
          let net = 0;
          for (const history of histories) {
            const state = fold(transferDecider, history);
            if (!state.created) continue;
            const kept = state.created.amount - state.reversed;
            if (state.created.destination === party) net += kept;
            if (state.created.source === party) net -= kept;
          }
          expect(balance).toBe(opening + net);
        }
      }),
    );
  });
});
