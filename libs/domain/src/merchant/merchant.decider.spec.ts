import { fold } from '../shared/decider';
import { given } from '../testing/given';
import { MerchantAlreadyRegistered, merchantDecider, MerchantHasTwin, MerchantNotFound, registrationMode, type MerchantCommand, type MerchantEvent } from './merchant.decider';

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-02-01T10:00:00.000Z';

const registerMerchant: MerchantCommand = { type: 'RegisterMerchant', data: { merchantId: 'm-1', name: 'Abebe Coffee', at: AT, mode: 'test', twinId: 'm-2' } };
const rotateApiSecret: MerchantCommand = { type: 'RotateApiSecret', data: { at: LATER } };
const rotateWebhookSecret: MerchantCommand = { type: 'RotateWebhookSecret', data: { at: LATER } };
const inviteOwner: MerchantCommand = { type: 'InviteOwner', data: { at: LATER } };

const registered: MerchantEvent = { type: 'MerchantRegistered', data: { merchantId: 'm-1', name: 'Abebe Coffee', registeredAt: AT, mode: 'test', twinId: 'm-2' } };
/** As a release before modes wrote it. */
const registeredBeforeModes: MerchantEvent = { type: 'MerchantRegistered', data: { merchantId: 'm-1', name: 'Abebe Coffee', registeredAt: AT } };
const apiSecretRotated: MerchantEvent = { type: 'MerchantApiSecretRotated', data: { merchantId: 'm-1', rotatedAt: LATER } };
const webhookSecretRotated: MerchantEvent = { type: 'MerchantWebhookSecretRotated', data: { merchantId: 'm-1', rotatedAt: LATER } };

const merchant = (history: MerchantEvent[]) => given(merchantDecider, history);

describe('Merchant', () => {
  it('registers a new merchant under its id and name', () => {
    merchant([]).when(registerMerchant).then([registered]);
    expect(fold(merchantDecider, [registered])).toEqual({ merchantId: 'm-1', name: 'Abebe Coffee', mode: 'test', twinId: 'm-2' });
  });

  it('reads a registration from before modes in the legacy mode, and one with a mode in its own', () => {
    expect(registrationMode(registeredBeforeModes.data as { mode?: 'test' | 'live' }, 'live')).toBe('live');
    expect(registrationMode(registeredBeforeModes.data as { mode?: 'test' | 'live' }, 'test')).toBe('test');
    expect(registrationMode(registered.data as { mode?: 'test' | 'live' }, 'live')).toBe('test');
  });

  it('gives a tenant from before modes its twin once', () => {
    const opened: MerchantEvent = { type: 'MerchantTwinOpened', data: { merchantId: 'm-1', twinId: 'm-3', openedAt: LATER } };
    merchant([registeredBeforeModes]).when({ type: 'OpenTwin', data: { twinId: 'm-3', at: LATER } }).then([opened]);
    merchant([registeredBeforeModes, opened]).when({ type: 'OpenTwin', data: { twinId: 'm-4', at: LATER } }).thenThrows(MerchantHasTwin);
    merchant([registered]).when({ type: 'OpenTwin', data: { twinId: 'm-4', at: LATER } }).thenThrows(MerchantHasTwin);
  });

  it('refuses to register the same merchant twice', () => {
    merchant([registered]).when(registerMerchant).thenThrows(MerchantAlreadyRegistered);
    merchant([registered, apiSecretRotated]).when(registerMerchant).thenThrows(MerchantAlreadyRegistered);
  });

  it('records that a secret was rotated, never the secret itself', () => {
    merchant([registered]).when(rotateApiSecret).then([apiSecretRotated]);
    merchant([registered]).when(rotateWebhookSecret).then([webhookSecretRotated]);
    expect(JSON.stringify([apiSecretRotated, webhookSecretRotated])).not.toMatch(/secret"\s*:/i);
  });

  it('rotates as often as asked, without changing who the merchant is', () => {
    merchant([registered, apiSecretRotated, webhookSecretRotated]).when(rotateApiSecret).then([apiSecretRotated]);
    expect(fold(merchantDecider, [registered, apiSecretRotated, webhookSecretRotated])).toEqual(fold(merchantDecider, [registered]));
  });

  it('records that the owner was invited to the dashboard, without the e-mail or the token', () => {
    const invited: MerchantEvent = { type: 'MerchantOwnerInvited', data: { merchantId: 'm-1', invitedAt: LATER } };
    merchant([registered, apiSecretRotated]).when(inviteOwner).then([invited]);
    expect(Object.keys(invited.data)).toEqual(['merchantId', 'invitedAt']);
  });

  it.each([
    ['an API secret', rotateApiSecret],
    ['a webhook secret', rotateWebhookSecret],
    ['an owner invitation', inviteOwner],
  ])('cannot rotate or issue %s for a merchant that was never registered', (_case, command) => {
    merchant([]).when(command).thenThrows(MerchantNotFound);
  });

  it('errors carry a stable code and an HTTP-free kind', () => {
    expect(new MerchantNotFound('m-1')).toMatchObject({ code: 'ABC_001', kind: 'not_found' });
    expect(new MerchantAlreadyRegistered('m-1')).toMatchObject({ code: 'MERCHANT_ALREADY_REGISTERED', kind: 'conflict' });
  });
});
