import { escrowIdFor, newOrderId } from '@app/domain';
import { auditSource } from '../audit-console/statement.page';
import { dashboardSource } from '../dashboard/payouts/payouts.pages';
import { sourceCell, statementBody } from './statement-view';
import type { DatePeriod } from '@app/read-models';

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

describe("a statement's recoveries", () => {
  it('marks the credit that covered a balance below zero with how much of it went to the deficit', () => {
    const movement = (eventId: string, amount: number, recovered: number, belongsTo: string | null = null) => ({
      eventId,
      type: 'AllocationReleased',
      source: 'tr_1',
      description: eventId,
      recordedAt: '2030-01-01T10:00:00.000Z',
      amount,
      gross: amount,
      fee: 0,
      recovered,
      availableOn: '2030-01-01',
      reserve: 0,
      reserveAvailableOn: null,
      counterparty: recovered > 0 ? 'Merkato Online' : null,
      sourceDescription: 'Coffee beans',
      escrowId: belongsTo,
      orderId: null,
    });
    const body = String(
      statementBody({
        subject: 'acct_1',
        period: { from: '2030-01-01T00:00:00+03:00', to: '2030-01-02T00:00:00+03:00', fromDate: '2030-01-01', toDate: '2030-01-01' } as DatePeriod,
        statement: { from: '2030-01-01T00:00:00+03:00', to: '2030-01-02T00:00:00+03:00', opening: -2_000, movements: [movement('Release A', 1_500, 1_500, escrowId), movement('Release B', 1_000, 500), movement('Release C', 700, 0)], closing: 1_200, livemode: false },
        form: { action: '/x', label: 'Period' },
        csvHref: '/x.csv',
        links: () => undefined,
      }),
    );
    const rows = body.split('<tr>');
    expect(rows.find((r) => r.includes('Release A'))).toContain('Recovery: 15.00 ETB covered what was owed');
    expect(rows.find((r) => r.includes('Release B'))).toContain('Recovery: 5.00 ETB covered what was owed');
    expect(rows.find((r) => r.includes('Release C'))).not.toContain('Recovery');
    // Each line names what it is about: its source's description and the other party.
    expect(rows.find((r) => r.includes('Release A'))).toContain('With Merkato Online');
    expect(rows.find((r) => r.includes('Release C'))).not.toContain('With ');
    expect(rows.filter((r) => r.includes('Coffee beans'))).toHaveLength(3);
    // A transfer's line says which escrow it was for (issue 42, item 5).
    expect(rows.find((r) => r.includes('Release A'))).toContain(`For Escrow ${escrowId}`);
    expect(rows.find((r) => r.includes('Release B'))).not.toContain('For ');
  });
});
