import { escrowIdFor, newOrderId } from '@app/domain';
import { auditSource } from '../audit-console/statement.page';
import { dashboardSource } from '../dashboard/payouts/payouts.pages';
import { sourceCell } from './statement-view';

// A statement line's source is its stream's key: an escrow's, an order's, a transfer's or a payout's id, or the merchant of a payout account.
const escrowId = escrowIdFor('salt', 'merchant-order-1');
const orderId = newOrderId();

describe("a statement line's source", () => {
  it('is labelled by the kind of payable its id names, or as the payouts', () => {
    const noLink = () => undefined;
    expect(String(sourceCell(escrowId, noLink))).toBe(`Escrow ${escrowId}`);
    expect(String(sourceCell(orderId, noLink))).toBe(`Order ${orderId}`);
    expect(String(sourceCell('m_1', noLink))).toBe('Payouts');
    expect(String(sourceCell('tr_1', noLink))).toBe('Transfer tr_1');
    expect(String(sourceCell('po_1', noLink))).toBe('Payout po_1');
  });

  it("opens the payable's dashboard page, or the payouts", () => {
    expect(dashboardSource(escrowId)).toBe(`/dashboard/escrows/${escrowId}`);
    expect(dashboardSource(orderId)).toBe(`/dashboard/orders/${orderId}`);
    expect(dashboardSource('m_1')).toBe('/dashboard/payouts');
    expect(dashboardSource('tr_1')).toBeUndefined();
    expect(dashboardSource('po_1')).toBe('/dashboard/payouts/po_1');
  });

  it("opens an escrow's timeline in the audit console, or the events of the order's or the payout account's stream", () => {
    const link = auditSource('m_1');
    expect(link(escrowId)).toBe(`/audit/escrows/${escrowId}`);
    expect(link(orderId)).toBe(`/audit/events?stream=order-${orderId}`);
    expect(link('m_1')).toBe('/audit/events?stream=payouts-m_1');
    expect(link('tr_1')).toBe('/audit/events?stream=transfer-tr_1');
    expect(link('po_1')).toBe('/audit/events?stream=payout-po_1');
  });
});
