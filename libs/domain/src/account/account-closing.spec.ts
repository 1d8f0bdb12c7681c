import fc from 'fast-check';
import { fold } from '../shared/decider';
import { given } from '../testing/given';
import { accountDecider } from './account.decider';
import { AccountNotFound, AccountNotUnderReview } from './account.errors';
import type { AccountCommand, AccountEvent } from './account.events';
import { AccountIsClosed, type AccountHoldings, AccountNotSettled } from './account-closing';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const ids = { accountId: 'acct_1', merchantId: 'mer_platform' };
const created: AccountEvent = { type: 'AccountCreated', data: { ...ids, name: 'Abebe Coffee', type: 'individual', requestFingerprint: 'f1', createdAt: AT } };
const rejected: AccountEvent = { type: 'AccountRejected', data: { ...ids, decidedBy: { type: 'admin', id: 'admin' }, reason: 'licence forged', decidedAt: AT } };
const NOTHING: AccountHoldings = { available: 0, onHold: 0, inTransit: 0, openAllocations: 0 };
const close = (holdings: Partial<AccountHoldings> = {}, merchantId = ids.merchantId): AccountCommand => ({
  type: 'CloseAccount',
  data: { accountId: 'acct_1', merchantId, reason: 'left the marketplace', holdings: { ...NOTHING, ...holdings }, at: LATER },
});
const closed: AccountEvent = { type: 'AccountClosed', data: { ...ids, closedBy: { type: 'merchant', id: 'mer_platform' }, reason: 'left the marketplace', closedAt: LATER } };

const account = (history: AccountEvent[]) => given(accountDecider, history);

describe('Closing an account', () => {
  it('closes an account that holds nothing, named by its platform, and says who closed it and why', () => {
    account([created]).when(close()).then([closed]);
    expect(fold(accountDecider, [created, closed]).account).toMatchObject({ status: 'CLOSED', statusReason: 'left the marketplace', updatedAt: LATER });
  });

  it('closes a rejected account too: closing is the end state', () => {
    account([created, rejected]).when(close()).then([closed]);
  });

  it('is refused while the account holds money, owes it, or has an allocation not yet settled', () => {
    account([created]).when(close({ available: 1 })).thenThrows('0.01 ETB available');
    account([created]).when(close({ available: -2_500 })).thenThrows('-25 ETB available');
    account([created]).when(close({ onHold: 100 })).thenThrows('1 ETB on hold');
    account([created]).when(close({ inTransit: 5_000 })).thenThrows('50 ETB in transit');
    account([created]).when(close({ openAllocations: 2 })).thenThrows('2 open allocations');
  });

  it("knows no account of another platform's, nor one never created", () => {
    account([created]).when(close({}, 'mer_other')).thenThrows(AccountNotFound);
    account([]).when(close()).thenThrows(AccountNotFound);
  });

  it('finds a closed account closed again: a retry changes nothing', () => {
    account([created, closed]).when(close()).thenNothing();
    account([created, closed]).when(close({ available: 100 })).thenNothing();
  });

  it('takes no more changes, documents, requests or reviews once closed', () => {
    const changes: AccountCommand[] = [
      { type: 'UpdateAccount', data: { ...ids, changes: { name: 'Renamed' }, at: LATER } },
      { type: 'InviteAccountOwner', data: { ...ids, at: LATER } },
      { type: 'RecordAccountDocument', data: { ...ids, uploadedBy: ids.merchantId, document: { documentId: 'doc_1', kind: 'identity', contentType: 'application/pdf', size: 10, sha256: 'a'.repeat(64) }, at: LATER } },
      { type: 'RequestAccountInformation', data: { accountId: 'acct_1', decidedBy: { type: 'admin', id: 'admin' }, requirements: [{ kind: 'identity', dueBy: '2031-01-01T00:00:00.000Z' }], at: LATER } },
    ];
    for (const command of changes) account([created, closed]).when(command).thenThrows(AccountIsClosed);
    account([created, closed]).when({ type: 'ApproveAccount', data: { accountId: 'acct_1', decidedBy: { type: 'admin', id: 'admin' }, at: LATER } }).thenThrows(AccountNotUnderReview);
  });
});

describe('Closing an account, property: whatever it holds', () => {
  it('closes it exactly when it holds nothing at all, and a refusal names every kind of holding it still has', () => {
    const amount = fc.oneof(fc.constant(0), fc.integer({ min: -1_000_000, max: 1_000_000 }));
    fc.assert(
      fc.property(fc.record({ available: amount, onHold: fc.nat({ max: 1_000_000 }), inTransit: fc.nat({ max: 1_000_000 }), openAllocations: fc.nat({ max: 5 }) }), (holdings) => {
        const settled = Object.values(holdings).every((value) => value === 0);
        let events: AccountEvent[] = [];
        try {
          events = accountDecider.decide(close(holdings), fold(accountDecider, [created]));
        } catch (error) {
          expect(settled).toBe(false);
          expect(error).toBeInstanceOf(AccountNotSettled);
          const named = ['available', 'on hold', 'in transit', 'open allocation'].filter((_, i) => Object.values(holdings)[i] !== 0);
          for (const words of named) expect((error as Error).message).toContain(words);
          return;
        }
        expect(settled).toBe(true);
        expect(events).toEqual([closed]);
      }),
    );
  });
});
