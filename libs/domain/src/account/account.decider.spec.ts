import { fold } from '../shared/decider';
import { given } from '../testing/given';
import { accountDecider } from './account.decider';
import { AccountNotFound, AccountNotUnderReview, AccountReferenceInUse, AccountRequirementsMissing } from './account.errors';
import type { AccountCommand, AccountEvent } from './account.events';
import { accountRequirements, sameHolder } from './account-requirements';
import { payoutStanding } from './account-payability';
import { sandboxScreening } from './sandbox-screening';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const ids = { accountId: 'acct_1', merchantId: 'mer_platform' };
const staff = { type: 'admin', id: 'admin' } as const;
const sandbox = { type: 'system', id: 'sandbox' } as const;

const create = (overrides: Partial<Extract<AccountCommand, { type: 'CreateAccount' }>['data']> = {}): AccountCommand => ({
  type: 'CreateAccount',
  data: { ...ids, name: 'Abebe Coffee PLC', type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1/2030', reference: 'seller-17', requestFingerprint: 'f1', at: AT, ...overrides },
});
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { ...ids, name: 'Abebe Coffee PLC', type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1/2030', reference: 'seller-17', requestFingerprint: 'f1', createdAt: AT },
};
const verified: AccountEvent = { type: 'AccountVerified', data: { ...ids, decidedBy: staff, decidedAt: LATER } };
const update = (changes: Record<string, unknown>, merchantId = ids.merchantId, screening?: ReturnType<typeof sandboxScreening>): AccountCommand => ({
  type: 'UpdateAccount',
  data: { accountId: 'acct_1', merchantId, changes, at: LATER, ...(screening ? { screening } : {}) },
});
const approve: AccountCommand = { type: 'ApproveAccount', data: { accountId: 'acct_1', decidedBy: staff, at: LATER } };
const reject: AccountCommand = { type: 'RejectAccount', data: { accountId: 'acct_1', decidedBy: staff, reason: 'licence does not match the name', at: LATER } };

const account = (history: AccountEvent[]) => given(accountDecider, history);

describe('Account', () => {
  it('is created pending verification, under its platform', () => {
    account([]).when(create()).then([created]);
    expect(fold(accountDecider, [created]).account).toMatchObject({ status: 'PENDING_VERIFICATION', merchantId: 'mer_platform', reference: 'seller-17' });
  });

  it('finds its account again for the same request, and refuses another under the same reference', () => {
    account([created]).when(create()).thenNothing();
    account([created]).when(create({ name: 'Someone Else', requestFingerprint: 'f2' })).thenThrows(AccountReferenceInUse);
    account([created]).when(create({ merchantId: 'mer_other' })).thenThrows(AccountReferenceInUse);
  });

  it('is verified or rejected at once by the sandbox rule for its test TINs, and waits for review for any other', () => {
    const screening = sandboxScreening('0000000001');
    account([]).when(create({ tin: '0000000001', screening })).then([
      { ...created, data: { ...created.data, tin: '0000000001' } },
      { type: 'AccountVerified', data: { ...ids, decidedBy: sandbox, reason: 'sandbox test TIN 0000000001', decidedAt: AT } },
    ]);
    const rejected = sandboxScreening('0000000009')!;
    expect(rejected.decision).toBe('REJECTED');
    expect(sandboxScreening('0012345678')).toBeUndefined();
  });

  it('is not verified by the sandbox while a business lacks its trade licence number; supplying it later verifies it', () => {
    const screening = sandboxScreening('0000000001');
    const withoutLicence = { ...created, data: { ...created.data, tin: '0000000001', tradeLicenceNumber: undefined } };
    account([]).when(create({ tin: '0000000001', tradeLicenceNumber: undefined, screening })).then([withoutLicence]);
    account([withoutLicence]).when(update({ tradeLicenceNumber: 'AA/1/2030' }, ids.merchantId, screening)).then([
      { type: 'AccountUpdated', data: { ...ids, changes: { tradeLicenceNumber: 'AA/1/2030' }, previous: { tradeLicenceNumber: null }, updatedAt: LATER } },
      { type: 'AccountVerified', data: { ...ids, decidedBy: sandbox, reason: 'sandbox test TIN 0000000001', decidedAt: LATER } },
    ]);
  });

  it('is approved or rejected by staff, with who decided and why; a business lacking its legal details cannot be approved', () => {
    account([created]).when(approve).then([verified]);
    account([created]).when(reject).then([{ type: 'AccountRejected', data: { ...ids, decidedBy: staff, reason: 'licence does not match the name', decidedAt: LATER } }]);
    account([{ ...created, data: { ...created.data, tin: undefined } }]).when(approve).thenThrows(AccountRequirementsMissing);
  });

  it('reviews only an account waiting for it: verified is done, rejected is final', () => {
    account([created, verified]).when(approve).thenThrows(AccountNotUnderReview);
    account([created, { type: 'AccountRejected', data: { ...ids, decidedBy: staff, reason: 'no', decidedAt: LATER } }]).when(approve).thenThrows(AccountNotUnderReview);
    account([]).when(approve).thenThrows(AccountNotFound);
  });

  it('restricts a verified account whose legal details change, until it is reviewed again; other details change nothing of its standing', () => {
    account([created, verified]).when(update({ name: 'Abebe Trading PLC' })).then([
      { type: 'AccountUpdated', data: { ...ids, changes: { name: 'Abebe Trading PLC' }, previous: { name: created.data.name }, updatedAt: LATER } },
      { type: 'AccountRestricted', data: { ...ids, reason: 'changed after verification: name', restrictedAt: LATER } },
    ]);
    account([created, verified]).when(update({ email: 'shop@abebe.example' })).then([{ type: 'AccountUpdated', data: { ...ids, changes: { email: 'shop@abebe.example' }, previous: { email: created.data.email ?? null }, updatedAt: LATER } }]);
  });

  it('changes nothing for an update that repeats what is there, and is another platform’s to nobody else', () => {
    account([created]).when(update({ name: 'Abebe Coffee PLC' })).thenNothing();
    account([created]).when(update({ name: 'Mine now' }, 'mer_other')).thenThrows(AccountNotFound);
  });

  it('clears a detail set to null, saying what it was; clearing one it does not have changes nothing', () => {
    const withEmail: AccountEvent = { ...created, data: { ...created.data, email: 'sales@abebe.example' } } as AccountEvent;
    const clearedEmail: AccountEvent = { type: 'AccountUpdated', data: { ...ids, changes: { email: null }, previous: { email: 'sales@abebe.example' }, updatedAt: LATER } };
    account([withEmail]).when(update({ email: null })).then([clearedEmail]);
    expect(fold(accountDecider, [withEmail, clearedEmail]).account).not.toHaveProperty('email');
    account([created]).when(update({ email: null, callbackUrl: null })).thenNothing();
  });

  it('restricts a verified account whose legal detail is cleared, and a business without it waits for it again', () => {
    const clearedLicence: AccountEvent = { type: 'AccountUpdated', data: { ...ids, changes: { tradeLicenceNumber: null }, previous: { tradeLicenceNumber: 'AA/1/2030' }, updatedAt: LATER } };
    account([created, verified]).when(update({ tradeLicenceNumber: null })).then([
      clearedLicence,
      { type: 'AccountRestricted', data: { ...ids, reason: 'changed after verification: tradeLicenceNumber', restrictedAt: LATER } },
    ]);
    const restricted: AccountEvent = { type: 'AccountRestricted', data: { ...ids, reason: 'changed after verification: tradeLicenceNumber', restrictedAt: LATER } };
    account([created, verified, clearedLicence, restricted]).when(approve).thenThrows(AccountRequirementsMissing);
  });
});

describe('Account requirements and payout standing', () => {
  const business = { type: 'business' as const, name: 'Abebe Coffee PLC', tin: '0012345678', tradeLicenceNumber: 'AA/1' };
  const first = { holderName: 'ABEBE COFFEE P.L.C', version: 1, setAt: AT };
  const HOUR = 3_600_000;

  it('names what is missing: legal details, a destination, a destination in the account’s own name', () => {
    expect(accountRequirements({ type: 'business', name: 'X' }, undefined)).toEqual(['tin', 'tradeLicenceNumber', 'payoutDestination']);
    expect(accountRequirements({ type: 'individual', name: 'Almaz Tesfaye' }, { ...first, holderName: 'Someone Else Entirely' })).toEqual(['payoutDestination.holderName']);
    expect(accountRequirements(business, { holderName: 'Abebe  Coffee plc', version: 1, setAt: AT })).toEqual([]);
    expect(sameHolder('Abebe Coffee P.L.C.', 'abebe coffee plc')).toBe(true);
  });

  it("records that its owner was invited and when the invitation was used, for its own platform only, and changes nothing else", () => {
    const invite: AccountCommand = { type: 'InviteAccountOwner', data: { ...ids, at: LATER } };
    const invited: AccountEvent = { type: 'AccountOwnerInvited', data: { ...ids, invitedAt: LATER } };
    account([created]).when(invite).then([invited]);
    account([created]).when({ type: 'InviteAccountOwner', data: { ...ids, merchantId: 'mer_other', at: LATER } }).thenThrows(AccountNotFound);
    account([]).when(invite).thenThrows(AccountNotFound);
    const used: AccountEvent = { type: 'AccountOwnerInvitationUsed', data: { ...ids, usedAt: LATER } };
    account([created, invited]).when({ type: 'RecordOwnerInvitationUsed', data: { accountId: 'acct_1', at: LATER } }).then([used]);
    expect(fold(accountDecider, [created, verified, invited, used])).toEqual(fold(accountDecider, [created, verified]));
  });

  it('pays out only a verified account with nothing missing, and holds a changed destination for the hold', () => {
    const now = new Date(Date.parse(LATER));
    expect(payoutStanding({ ...business, status: 'PENDING_VERIFICATION' }, first, now, 24 * HOUR)).toEqual({ payable: false, reason: 'ACCOUNT_NOT_VERIFIED', status: 'PENDING_VERIFICATION' });
    // Not verified names the status it is in, and why where the staff said, for the refusal's message.
    expect(payoutStanding({ ...business, status: 'RESTRICTED', statusReason: 'changed after verification: tin' }, first, now, 24 * HOUR)).toEqual({
      payable: false,
      reason: 'ACCOUNT_NOT_VERIFIED',
      status: 'RESTRICTED',
      statusReason: 'changed after verification: tin',
    });
    expect(payoutStanding({ ...business, status: 'VERIFIED' }, undefined, now, 24 * HOUR)).toMatchObject({ payable: false, reason: 'REQUIREMENTS_MISSING', missing: ['payoutDestination'] });
    expect(payoutStanding({ ...business, status: 'VERIFIED' }, first, now, 24 * HOUR)).toEqual({ payable: true });
    const changed = { ...first, version: 2, setAt: new Date(now.getTime() - HOUR).toISOString() };
    expect(payoutStanding({ ...business, status: 'VERIFIED' }, changed, now, 24 * HOUR)).toEqual({
      payable: false,
      reason: 'DESTINATION_CHANGE_HOLD',
      heldUntil: new Date(now.getTime() + 23 * HOUR).toISOString(),
    });
    expect(payoutStanding({ ...business, status: 'VERIFIED' }, changed, new Date(now.getTime() + 23 * HOUR), 24 * HOUR)).toEqual({ payable: true });
  });

  it('notes each new payout destination version once, so that a retried note tells the platform nothing twice', () => {
    const note = (version: number): AccountCommand => ({ type: 'NoteAccountPayoutDestination', data: { accountId: 'acct_1', version, at: LATER } });
    const noted: AccountEvent = { type: 'AccountPayoutDestinationChanged', data: { ...ids, version: 2, changedAt: LATER } };
    account([created]).when(note(2)).then([noted]);
    account([created, noted]).when(note(2)).then([]);
    account([created, noted]).when(note(1)).then([]);
    account([created, noted]).when(note(3)).then([{ ...noted, data: { ...noted.data, version: 3 } }]);
    account([]).when(note(1)).thenThrows(AccountNotFound);
    // A note changes nothing the account shows.
    expect(fold(accountDecider, [created, verified, noted]).account).toEqual(fold(accountDecider, [created, verified]).account);
  });

  it("records a rotation of the account's webhook secret, never the secret", () => {
    account([created, verified])
      .when({ type: 'RotateAccountWebhookSecret', data: { accountId: 'acct_1', at: LATER } })
      .then([{ type: 'AccountWebhookSecretRotated', data: { ...ids, rotatedAt: LATER } }]);
  });
});
