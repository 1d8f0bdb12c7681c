import type { Santim } from '@app/domain';
import { type PostedEvent, providerMovementsOf, UnknownClearingMovement } from './provider-movements';

const RECORDED = '2026-11-25T09:00:05.000Z';
const event = (id: string, streamId: string, type: string, data: Record<string, unknown>): PostedEvent => ({ id, streamId, type, data, recordedAt: RECORDED });
const debit = (eventId: string, amount: number) => ({ eventId, debit: amount as Santim, credit: 0 as const });
const credit = (eventId: string, amount: number) => ({ eventId, debit: 0 as const, credit: amount as Santim });

describe('provider movements from the ledger', () => {
  it('reads each clearing posting with the references its event keeps, at the provider time it carries', () => {
    const events = [
      event('e1', 'order-ord_1', 'OrderPaid', { externalReferenceId: 'SBX-1', amount: 25_075, paidAt: '2026-11-25T09:00:00.000Z' }),
      event('e2', 'escrow-esc_1', 'EscrowRefundRequested', { refundId: 'rf_2', paymentReferenceId: 'SBX-2', amount: 500, requestedAt: '2026-11-25T09:01:00.000Z' }),
      event('e3', 'escrow-esc_1', 'EscrowRefundCompleted', { refundId: 'rf_2', externalReferenceId: 'SBX-R-2', completedAt: '2026-11-25T09:02:00.000Z' }),
      event('e4', 'payouts-mer_1', 'PayoutPaid', { payoutId: 'pay_1', externalReferenceId: 'SBX-T-1', amount: 85_125, paidAt: '2026-11-25T09:03:00.000Z' }),
      event('e5', 'escrow-esc_2', 'EscrowFunded', { externalReferenceId: 'CHabc', amount: 100_050 }),
    ];
    const movements = providerMovementsOf([debit('e1', 25_075), debit('e2', 500), credit('e3', 500), credit('e4', 85_125), debit('e5', 100_050)], events);
    expect(movements.map((m) => [m.eventId, m.kind, m.providerReference, m.reference, m.amount, m.at])).toEqual([
      ['e1', 'payment', 'SBX-1', undefined, 25_075, '2026-11-25T09:00:00.000Z'],
      // The refund of a payment that could not be taken: the payment's money came in.
      ['e2', 'payment', 'SBX-2', undefined, 500, '2026-11-25T09:01:00.000Z'],
      ['e3', 'refund', 'SBX-R-2', 'rf_2', 500, '2026-11-25T09:02:00.000Z'],
      ['e4', 'transfer', 'SBX-T-1', 'pay_1', 85_125, '2026-11-25T09:03:00.000Z'],
      // No provider time recorded: when we recorded it.
      ['e5', 'payment', 'CHabc', undefined, 100_050, RECORDED],
    ]);
  });

  it('refuses a clearing movement whose event names no provider reference it knows', () => {
    expect(() => providerMovementsOf([debit('e1', 100)], [event('e1', 'order-ord_1', 'SomethingNew', {})])).toThrow(UnknownClearingMovement);
    expect(() => providerMovementsOf([debit('e1', 100)], [event('e1', 'order-ord_1', 'OrderPaid', {})])).toThrow(UnknownClearingMovement);
  });
});
