import fc from 'fast-check';
import { escrowIdFor, newOrderId, newPayoutId, orderIdFor } from './ids';
import { holdsMoney, isPayableStream, isStreamId, parseStreamId, payableKind, plansCallbacks, STREAM_KINDS, STREAM_NAMES, streamKey, streamKind, streams } from './streams';

const keys = fc.stringMatching(/^[A-Za-z0-9_]{1,100}$/);

describe('stream kinds', () => {
  it.each(STREAM_KINDS)('%s: a key named as the kind reads back as that kind and key', (kind) => {
    fc.assert(
      fc.property(keys, (key) => {
        const streamId = streams[kind](key);
        expect(parseStreamId(streamId)).toEqual({ kind, key });
        expect(streamKey(streamId)).toBe(key);
        expect(isStreamId(streamId)).toBe(true);
      }),
    );
  });

  it('never reads payout settings as a payout account, nor a payout account as payout settings', () => {
    expect(parseStreamId('payout-settings-m_1')).toEqual({ kind: 'payoutSettings', key: 'm_1' });
    expect(parseStreamId('payouts-m_1')).toEqual({ kind: 'payouts', key: 'm_1' });
    expect(holdsMoney('payout-settings-m_1')).toBe(false);
    // A change of settings is planned as PAYOUT_SETTINGS_UPDATED; a payout account's, as its payouts' outcomes.
    expect(plansCallbacks('payout-settings-m_1')).toBe(true);
    // A payout account's key never holds a dash, so this is no stream of ours, not settings under another name.
    expect(isStreamId('payouts-settings-m_1')).toBe(false);
  });

  it("tells a payout's stream from its merchant's books and destination, and none of them holds what it does not", () => {
    expect(parseStreamId('payout-po_1')).toEqual({ kind: 'payout', key: 'po_1' });
    expect(parseStreamId('payout-books-m_1')).toEqual({ kind: 'payoutBooks', key: 'm_1' });
    expect(parseStreamId('payout-destination-m_1')).toEqual({ kind: 'payoutDestination', key: 'm_1' });
    expect([holdsMoney('payout-po_1'), plansCallbacks('payout-po_1')]).toEqual([true, true]);
    expect([holdsMoney('payout-books-m_1'), holdsMoney('payout-destination-m_1'), plansCallbacks('payout-books-m_1')]).toEqual([false, false, false]);
  });

  it('knows no kind for a name that only resembles one', () => {
    for (const name of ['escrow', 'escrow-', 'escrowx-1', 'payouts', 'payout-settings-', 'Order-1', 's-1']) expect(isStreamId(name)).toBe(false);
    for (const name of ['escrowx-1', 'payoutx-1', 's-1']) expect(streamKind(name)).toBeUndefined();
    expect(() => streamKey('s-1')).toThrow('"s-1" is not a stream of any kind');
  });

  it('says which kinds are payables, move money and call back', () => {
    const of = (test: (streamId: string) => boolean) => STREAM_KINDS.filter((kind) => test(streams[kind]('x')));
    expect(of(isPayableStream)).toEqual(['escrow', 'order']);
    expect(of(holdsMoney)).toEqual(['escrow', 'order', 'payouts', 'payout', 'transfer']);
    expect(of(plansCallbacks)).toEqual(['escrow', 'order', 'account', 'payouts', 'payout', 'payoutSettings', 'webhookEndpoint', 'transfer']);
  });

  it('tells an order id from an escrow id by the prefix ids.ts gives each, and names nothing else', () => {
    expect(payableKind(newOrderId())).toBe('order');
    expect(payableKind(orderIdFor('salt', 'key', 'fingerprint'))).toBe('order');
    expect(payableKind(escrowIdFor('salt', 'merchant-order-1'))).toBe('escrow');
    expect(payableKind(newPayoutId())).toBeUndefined();
    expect(payableKind('m_1')).toBeUndefined();
  });

  it('lists every kind in the names an audit error offers', () => {
    expect(STREAM_NAMES).toBe('escrow-…, order-…, merchant-…, account-…, auditor-…, staff-…, callback-…, payouts-…, payout-…, payout-destination-…, payout-books-…, payout-settings-…, reconciliation-…, webhook-endpoint-…, transfer-…, commission-…, platform-link-…, deployment-modes-… or test-clock-…');
  });
});
