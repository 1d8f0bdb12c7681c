import { fold } from '../shared/decider';
import { accountDecider } from './account.decider';
import type { AccountEvent } from './account.events';
import { accountOf } from './account.outline';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const ids = { accountId: 'acct_1', merchantId: 'mer_platform' };
const staff = { type: 'admin', id: 'admin' } as const;

const created: AccountEvent = {
  type: 'AccountCreated',
  data: { ...ids, name: 'Abebe Coffee PLC', type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1/2030', reference: 'seller-17', requestFingerprint: 'f1', createdAt: AT },
};
const verified: AccountEvent = { type: 'AccountVerified', data: { ...ids, decidedBy: staff, decidedAt: LATER } };
const changedTin: AccountEvent = { type: 'AccountUpdated', data: { ...ids, changes: { tin: '0099999999' }, updatedAt: LATER } };
const restricted: AccountEvent = { type: 'AccountRestricted', data: { ...ids, reason: 'changed after verification: tin', restrictedAt: LATER } };

describe('The published account', () => {
  it('is what its events say, without the fingerprint of the request that created it', () => {
    expect(accountOf([created, verified, changedTin, restricted])).toEqual({
      ...ids,
      name: 'Abebe Coffee PLC',
      type: 'business',
      tin: '0099999999',
      tradeLicenceNumber: 'AA/1/2030',
      reference: 'seller-17',
      createdAt: AT,
      updatedAt: LATER,
      status: 'RESTRICTED',
      statusReason: 'changed after verification: tin',
      decidedBy: staff,
      decidedAt: LATER,
    });
  });

  it('is nothing before the account is created', () => {
    expect(accountOf([])).toBeUndefined();
    expect(accountOf([verified])).toBeUndefined();
  });

  it('is the account the decider decides on, which keeps the fingerprint beside it for a retried create', () => {
    const history = [created, verified, changedTin, restricted];
    expect(fold(accountDecider, history)).toEqual({ account: accountOf(history), requestFingerprint: 'f1' });
  });
});
