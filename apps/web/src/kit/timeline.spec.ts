import { describeEvent } from './timeline';

describe('describeEvent', () => {
  it.each([
    ['CallbackScheduled', { sourceEventType: 'EscrowFunded', url: 'https://shop.example/cb' }, 'Callback for EscrowFunded scheduled to https://shop.example/cb'],
    ['CallbackAttempted', { attempt: 2, statusCode: 503, latencyMs: 41 }, "Callback attempt 2: the merchant's server answered 503 in 41 ms"],
    ['CallbackAttempted', { attempt: 1, error: 'ECONNREFUSED', latencyMs: 3 }, 'Callback attempt 1: no answer (ECONNREFUSED) in 3 ms'],
    ['CallbackDelivered', { attempt: 3 }, 'Callback delivered on attempt 3'],
    ['CallbackAbandoned', { attempts: 10, reason: 'Every scheduled attempt failed' }, 'Callback abandoned after 10 attempts: Every scheduled attempt failed'],
    ['PayoutRequested', { amount: 150_000, settles: [{}, {}] }, 'Payout of 1,500.00 ETB requested, settling 2 movements'],
    ['PayoutRequested', { amount: 150_000, after: null, through: '12-3' }, 'Payout of 1,500.00 ETB requested, settling the payable up to their balance'],
    ['PayoutRequested', { amount: 150_000, fees: 30_000, after: null, through: '12-3' }, 'Payout of 1,500.00 ETB requested, settling the payable and fees up to their balance'],
    ['PayoutBooked', { payoutId: 'po_1', through: '12-3' }, "Payout po_1 booked: the merchant's next payout is decided after it"],
    ['TransferBooked', { transferId: 'tr_1', payoutsThrough: '12-3' }, "Transfer tr_1 booked: the merchant's next payout or transfer is decided after it"],
    ['AccountClosureBooked', { accountId: 'acct_1', payoutsThrough: null }, 'Closing of account acct_1 booked: no payout or transfer of it is decided alongside it'],
    ['AllocationReversalBooked', { escrowId: 'esc_1', refundId: 'esc_1-refund-2', payoutsThrough: null }, "Reversal esc_1-refund-2 of escrow esc_1 booked: the merchant's next payout, transfer or closing is decided after it"],
    ['PayoutDestinationFailed', { version: 2, payoutId: 'po_1' }, 'Payout destination version 2 paused: payout po_1 to it failed'],
    ['PayoutPaid', { amount: 150_000, externalReferenceId: 'TR-1' }, 'Payout of 1,500.00 ETB paid (provider reference TR-1)'],
    ['PayoutFailed', { amount: 150_000, reason: 'BOUNCED' }, 'Payout of 1,500.00 ETB failed (BOUNCED); the money is back in the payable'],
    ['PayoutFailed', { amount: 150_000, fees: 30_000, reason: 'BOUNCED' }, 'Payout of 1,500.00 ETB failed (BOUNCED); the money is back in the payable and fees'],
    ['PayoutCanceled', { amount: 40_000 }, 'Payout of 400.00 ETB cancelled before it was sent; the money is back in the payable'],
    ['PayoutAccountCarriedOver', { payouts: 2 }, 'Payout account carried over to the newer streams (2 payouts to their own): nothing is recorded here any more'],
    ['PayoutCarriedOver', { amount: 60_050, status: 'SENT' }, 'Payout of 600.50 ETB carried over from the payout account stream, SENT: its money moved with its request there'],
    ['PayoutDestinationCarriedOver', { version: 2, failed: { payoutId: 'po_1' } }, 'Payout destination version 2 carried over from the payout account stream, paused'],
    [
      'PayoutSettingsCarriedOver',
      { version: 2, settings: { schedule: { kind: 'manual' }, minimumAmount: 100, callbackUrl: null } },
      'Payout settings version 2 carried over from the payout account stream: paid on request only; minimum 1.00 ETB; money available at once; no payout callbacks',
    ],
    ['PayoutsPaused', { reason: 'fraud review' }, 'Payouts paused (fraud review): none is paid until they are resumed'],
    ['PayoutsResumed', {}, 'Payouts resumed'],
    ['WebhookEndpointCreated', { url: 'https://shop.example/payouts', events: ['PAYOUT_PAID', 'PAYOUT_FAILED'] }, 'Webhook endpoint https://shop.example/payouts created for PAYOUT_PAID, PAYOUT_FAILED'],
    ['WebhookEndpointUpdated', { url: 'https://shop.example/all', events: ['*'], disabled: true }, 'Webhook endpoint changed: https://shop.example/all for *, disabled'],
    ['TransferCreated', { amount: 5_000, platformId: 'm_p', source: 'm_p', destination: 'm_s', description: 'Goodwill bonus', allowNegative: false }, 'Transfer of 50.00 ETB from m_p to m_s: Goodwill bonus'],
    ['TransferCreated', { amount: 2_000, platformId: 'm_p', source: 'm_s', destination: 'm_p', description: 'Late delivery', allowNegative: true }, 'Penalty transfer of 20.00 ETB from m_s to m_p (may take it below zero): Late delivery'],
    ['TransferReversed', { amount: 1_500, source: 'm_p', destination: 'm_s' }, '15.00 ETB of the transfer given back by m_s to m_p'],
    [
      'PayoutSettingsChanged',
      { version: 3, settings: { schedule: { kind: 'daily', hour: 9 }, minimumAmount: 10_000, callbackUrl: 'https://shop.example/payouts', payoutDelayDays: 7 } },
      'Payout settings version 3: paid daily at 09:00 Addis Ababa time; minimum 100.00 ETB; money held 7 days before it is available; callbacks to https://shop.example/payouts',
    ],
    [
      'PayoutSettingsChanged',
      { version: 1, settings: { schedule: { kind: 'weekly', hour: 14, weekday: 'friday' }, minimumAmount: 0, callbackUrl: null } },
      'Payout settings version 1: paid every friday at 14:00 Addis Ababa time; minimum 0.00 ETB; money available at once; no payout callbacks',
    ],
    ['PayoutSettingsChanged', { version: 2, settings: { schedule: { kind: 'manual' }, minimumAmount: 500, callbackUrl: null, payoutDelayDays: 1 } }, 'Payout settings version 2: paid on request only; minimum 5.00 ETB; money held 1 day before it is available; no payout callbacks'],
    ['PayoutDestinationSet', { version: 2, destination: { kind: 'bank', institution: '946', accountMask: '••••6789' } }, 'Payout destination set (version 2): bank 946 ••••6789'],
    ['PlatformLinked', { merchantId: 'mer_shop', platformId: 'mer_market', decidedBy: 'merchant' }, 'mer_shop let the platform mer_market debit and credit it (decided by the merchant)'],
    ['PlatformLinkRevoked', { merchantId: 'mer_shop', platformId: 'mer_market', decidedBy: 'operator' }, "mer_shop revoked the platform mer_market's link (decided by the operator)"],
    ['AccountVerified', { decidedBy: { type: 'admin', id: 'stf_4c1d' }, reason: 'licence checked' }, 'Account verified by staff stf_4c1d: licence checked'],
    ['AccountRejected', { decidedBy: { type: 'admin', id: 'admin' }, reason: 'no licence' }, 'Account rejected by admin admin: no licence'],
  ])('%s %j reads "%s"', (type, data, sentence) => {
    expect(describeEvent({ type, data })).toBe(sentence);
  });

  it('names a merchant beside its id when the escrow named it', () => {
    expect(describeEvent({ type: 'AllocationReleased', data: { amount: 60_050, merchantId: 'seller-1' } }, { 'seller-1': 'Seller One' })).toBe('Released 600.50 ETB to Seller One (seller-1)');
    expect(describeEvent({ type: 'AllocationReleased', data: { amount: 60_050, merchantId: 'seller-2' } }, { 'seller-1': 'Seller One' })).toBe('Released 600.50 ETB to seller-2');
  });
});
