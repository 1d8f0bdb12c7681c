import { fold } from '../shared/decider';
import { given } from '../testing/given';
import { accountDecider } from './account.decider';
import { AccountNotFound, AccountNotUnderReview, AccountRejectedIsFinal, AccountRequirementsInvalid } from './account.errors';
import type { AccountCommand, AccountEvent } from './account.events';
import { payoutStanding } from './account-payability';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-02T10:00:00.000Z';
const DUE = '2030-01-09T10:00:00.000Z';
const ids = { accountId: 'acct_1', merchantId: 'mer_platform' };
const staff = { type: 'admin', id: 'admin' } as const;

const created: AccountEvent = {
  type: 'AccountCreated',
  data: { ...ids, name: 'Abebe Coffee PLC', type: 'business', tin: '0012345678', tradeLicenceNumber: 'AA/1/2030', requestFingerprint: 'f1', createdAt: AT },
};
const verified: AccountEvent = { type: 'AccountVerified', data: { ...ids, decidedBy: staff, decidedAt: LATER } };
const rejected: AccountEvent = { type: 'AccountRejected', data: { ...ids, decidedBy: staff, reason: 'not a business', decidedAt: LATER } };

const ask = (requirements: { kind: 'identity' | 'tin_certificate' | 'trade_licence'; dueBy: string }[], reason?: string): AccountCommand => ({
  type: 'RequestAccountInformation',
  data: { accountId: 'acct_1', decidedBy: staff, requirements, ...(reason ? { reason } : {}), at: LATER },
});
const asked: AccountEvent = {
  type: 'AccountInformationRequested',
  data: { ...ids, requirements: [{ kind: 'trade_licence', dueBy: DUE }], decidedBy: staff, reason: 'the licence expired', requestedAt: LATER },
};
const licence = { documentId: 'doc_1', kind: 'trade_licence', contentType: 'application/pdf', size: 1200, sha256: 'ab'.repeat(32) } as const;
const upload = (merchantId = ids.merchantId, uploadedBy = merchantId): AccountCommand => ({ type: 'RecordAccountDocument', data: { accountId: 'acct_1', merchantId, uploadedBy, document: licence, at: LATER } });
const uploaded: AccountEvent = { type: 'AccountDocumentUploaded', data: { ...licence, ...ids, uploadedBy: { type: 'merchant', id: ids.merchantId }, uploadedAt: LATER } };
const uploadedBySeller: AccountEvent = { type: 'AccountDocumentUploaded', data: { ...licence, ...ids, uploadedBy: { type: 'merchant', id: 'acct_1' }, uploadedAt: LATER } };

const account = (history: AccountEvent[]) => given(accountDecider, history);
const outline = (history: AccountEvent[]) => fold(accountDecider, history).account!;

describe('Account review by staff: documents asked for by a due instant', () => {
  it('records who asked for what and by when, on an account in review or a verified one', () => {
    account([created]).when(ask([{ kind: 'trade_licence', dueBy: DUE }], 'the licence expired')).then([asked]);
    account([created, verified]).when(ask([{ kind: 'trade_licence', dueBy: DUE }], 'the licence expired')).then([asked]);
    expect(outline([created, asked]).requirementsDue).toEqual([{ kind: 'trade_licence', dueBy: DUE }]);
  });

  it('refuses requirements it cannot ask: none, a kind twice, one due at or before now; and any for a rejected account', () => {
    account([created]).when(ask([])).thenThrows(AccountRequirementsInvalid);
    account([created]).when(ask([{ kind: 'identity', dueBy: DUE }, { kind: 'identity', dueBy: DUE }])).thenThrows(AccountRequirementsInvalid);
    account([created]).when(ask([{ kind: 'identity', dueBy: LATER }])).thenThrows(AccountRequirementsInvalid);
    account([created, rejected]).when(ask([{ kind: 'identity', dueBy: DUE }])).thenThrows(AccountRejectedIsFinal);
    account([]).when(ask([{ kind: 'identity', dueBy: DUE }])).thenThrows(AccountNotFound);
  });

  it('keeps a document as what it is and its digest, for its own platform only; it meets the requirement of its kind', () => {
    account([created, asked]).when(upload()).then([uploaded]);
    account([created, asked]).when(upload('mer_other')).thenThrows(AccountNotFound);
    // Its seller, on the hosted page, uploads as the account itself; no other merchant uploads for it.
    account([created, asked]).when(upload(ids.merchantId, 'acct_1')).then([uploadedBySeller]);
    account([created, asked]).when(upload(ids.merchantId, 'mer_other')).thenThrows(AccountNotFound);
    account([created, rejected]).when(upload()).thenThrows(AccountRejectedIsFinal);
    const after = outline([created, asked, uploaded]);
    expect(after.requirementsDue).toBeUndefined();
    expect(after.documents).toEqual([{ ...licence, uploadedAt: LATER, uploadedBy: { type: 'merchant', id: ids.merchantId } }]);
    // The account shows who uploaded each document: its seller's own upload names the account.
    expect(outline([created, asked, uploadedBySeller]).documents).toEqual([{ ...licence, uploadedAt: LATER, uploadedBy: { type: 'merchant', id: 'acct_1' } }]);
  });

  it('settles what was asked with an approval, and approves or rejects only an account in review', () => {
    expect(outline([created, asked, verified]).requirementsDue).toBeUndefined();
    const approve: AccountCommand = { type: 'ApproveAccount', data: { accountId: 'acct_1', decidedBy: staff, at: LATER } };
    account([created, verified, asked]).when(approve).thenThrows(AccountNotUnderReview);
  });

  it("restricts a verified account's payouts once a requirement is past due, until the document arrives", () => {
    const destination = { holderName: 'Abebe Coffee PLC', version: 1, setAt: AT };
    const before = new Date(Date.parse(DUE) - 1);
    const at = new Date(DUE);
    expect(payoutStanding(outline([created, verified, asked]), destination, before, 0)).toEqual({ payable: true });
    expect(payoutStanding(outline([created, verified, asked]), destination, at, 0)).toEqual({
      payable: false,
      reason: 'ACCOUNT_NOT_VERIFIED',
      status: 'RESTRICTED',
      statusReason: `trade_licence was due by ${DUE} and has not arrived`,
    });
    expect(payoutStanding(outline([created, verified, asked, uploaded]), destination, at, 0)).toEqual({ payable: true });
  });
});

describe('Account restricted by a requirement past due, as an event', () => {
  const PAST = '2030-01-09T10:00:00.001Z';
  const restrict = (at: string): AccountCommand => ({ type: 'RestrictPastDueAccount', data: { accountId: 'acct_1', at } });
  const reason = `trade_licence was due by ${DUE} and has not arrived`;
  const restricted = (liftsTo: 'VERIFIED' | 'PENDING_VERIFICATION'): AccountEvent => ({
    type: 'AccountRestricted',
    data: { ...ids, reason, restrictedAt: DUE, pastDue: [{ kind: 'trade_licence', dueBy: DUE }], liftsTo },
  });
  const lateUpload: AccountCommand = { type: 'RecordAccountDocument', data: { accountId: 'acct_1', merchantId: ids.merchantId, uploadedBy: ids.merchantId, document: licence, at: PAST } };
  const lateUploaded: AccountEvent = { ...uploaded, data: { ...uploaded.data, uploadedAt: PAST } } as AccountEvent;
  const lifted = (status: 'VERIFIED' | 'PENDING_VERIFICATION'): AccountEvent => ({
    type: 'AccountRestrictionLifted',
    data: { ...ids, status, reason: 'the requirements past due were met', liftedAt: PAST },
  });

  it('restricts a verified or pending account from the due instant on, and not a moment before', () => {
    account([created, verified, asked]).when(restrict(new Date(Date.parse(DUE) - 1).toISOString())).then([]);
    account([created, verified, asked]).when(restrict(DUE)).then([restricted('VERIFIED')]);
    account([created, asked]).when(restrict(DUE)).then([restricted('PENDING_VERIFICATION')]);
    expect(outline([created, verified, asked, restricted('VERIFIED')])).toMatchObject({ status: 'RESTRICTED', statusReason: reason, liftsTo: 'VERIFIED' });
  });

  it('restricts once: an account already restricted, rejected, closed or with the document changes nothing', () => {
    account([created, verified, asked, restricted('VERIFIED')]).when(restrict(PAST)).then([]);
    account([created, asked, rejected]).when(restrict(PAST)).then([]);
    account([created, verified, asked, uploaded]).when(restrict(PAST)).then([]);
  });

  it('lifts it back to the status it had when the document arrives, and says so', () => {
    account([created, verified, asked, restricted('VERIFIED')]).when(lateUpload).then([lateUploaded, lifted('VERIFIED')]);
    account([created, asked, restricted('PENDING_VERIFICATION')]).when(lateUpload).then([lateUploaded, lifted('PENDING_VERIFICATION')]);
    const after = outline([created, verified, asked, restricted('VERIFIED'), lateUploaded, lifted('VERIFIED')]);
    expect(after).toMatchObject({ status: 'VERIFIED', statusReason: 'the requirements past due were met' });
    expect(after.liftsTo).toBeUndefined();
  });

  it('lifts it when staff ask anew with nothing past due; an approval ends it as a verification', () => {
    const askAgain: AccountCommand = { type: 'RequestAccountInformation', data: { accountId: 'acct_1', decidedBy: staff, requirements: [{ kind: 'identity', dueBy: '2030-02-01T00:00:00.000Z' }], at: PAST } };
    const [, lift] = accountDecider.decide(askAgain, fold(accountDecider, [created, verified, asked, restricted('VERIFIED')]));
    expect(lift).toEqual(lifted('VERIFIED'));
    const approved = outline([created, verified, asked, restricted('VERIFIED'), verified]);
    expect(approved.status).toBe('VERIFIED');
    expect(approved.liftsTo).toBeUndefined();
  });

  it('keeps a restriction a document cannot lift when the legal details change meanwhile', () => {
    const rename: AccountCommand = { type: 'UpdateAccount', data: { accountId: 'acct_1', merchantId: ids.merchantId, changes: { name: 'Abebe Roasters PLC' }, at: PAST } };
    const events = accountDecider.decide(rename, fold(accountDecider, [created, verified, asked, restricted('VERIFIED')]));
    expect(events.map((e) => e.type)).toEqual(['AccountUpdated', 'AccountRestricted']);
    account([created, verified, asked, restricted('VERIFIED'), ...events]).when(lateUpload).then([lateUploaded]);
  });
});
