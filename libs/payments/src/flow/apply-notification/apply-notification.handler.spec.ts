import { InvalidInput, santim, streams } from '@app/domain';
import { Clocks, CommandRunner, systemClock } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../../event-store/src/testing/in-memory-event-store';
import {
  AMOUNT,
  DURING_WINDOW,
  escrowCancelled,
  escrowCreated,
  escrowFunded,
  LATER,
  refundId,
  refundRequested,
} from '../../../../domain/src/testing/escrow.fixtures';
import type { ProviderNotification } from '../../payment-provider.port';
import { PaymentFlow } from '../payment-flow';
import { ApplyNotificationCommand } from './apply-notification.command';
import { ApplyNotificationHandler } from './apply-notification.handler';

const ESCROW_ID = 'esc_0123456789abcdef0123456789abcdef';

const paymentSucceeded = (overrides: Partial<ProviderNotification> = {}): ProviderNotification => ({
  id: 'ntf-1',
  type: 'payment.succeeded',
  orderId: ESCROW_ID,
  externalReferenceId: 'pay-1',
  amount: 225,
  paymentType: 'telebirr',
  occurredAt: DURING_WINDOW,
  ...overrides,
});

/** A provider's report turned into the escrow's own event, on the in-memory event store (the rules: payment.decider.spec.ts). */
describe('ApplyNotificationHandler', () => {
  let store: InMemoryEventStore;
  let handler: ApplyNotificationHandler;

  beforeEach(() => {
    store = new InMemoryEventStore();
    handler = new ApplyNotificationHandler(new PaymentFlow(new CommandRunner(store)), new Clocks(store, systemClock));
  });

  const recorded = (...events: { type: string; data: unknown }[]) => store.append(streams.escrow(ESCROW_ID), events, 'no_stream');
  const events = async () => store.readStream(streams.escrow(ESCROW_ID));
  const apply = (notification: ProviderNotification) => handler.execute(new ApplyNotificationCommand('sandbox', notification));

  it('records a payment in santim at the time the provider reports, as the provider, once however often it is reported', async () => {
    await recorded(escrowCreated({ escrowId: ESCROW_ID }));
    const { summary, recordedAt } = await apply(paymentSucceeded());
    expect((await events()).at(-1)).toMatchObject({
      type: 'EscrowFunded',
      data: { externalReferenceId: 'pay-1', paymentType: 'telebirr', amount: santim(22_500), paidAt: DURING_WINDOW },
      metadata: { correlationId: 'ntf-1', causationId: 'ntf-1', actor: { type: 'provider', id: 'sandbox' } },
    });
    expect(summary).toMatchObject({ status: 'HELD', paymentReferenceId: 'pay-1' });
    expect(recordedAt).toEqual((await events()).at(-1)!.recordedAt);
    // Reported again: nothing recorded, so no instant of a change to tell.
    expect(await apply(paymentSucceeded({ id: 'ntf-2' }))).toEqual({ summary });
    expect(await events()).toHaveLength(2);
  });

  it('applies a report whose time it cannot read at the instant it arrives', async () => {
    // Payable whenever the test runs: the report lands at the real clock's instant.
    await recorded(escrowCreated({ escrowId: ESCROW_ID, expiresAt: '2999-01-01T00:00:00.000Z' }));
    const before = Date.now();
    await apply(paymentSucceeded({ occurredAt: 'just now' }));
    const { paidAt } = (await events()).at(-1)!.data as { paidAt: string };
    expect(Date.parse(paidAt)).toBeGreaterThanOrEqual(before);
  });

  it('completes a refund the escrow asked for', async () => {
    await recorded(escrowCreated({ escrowId: ESCROW_ID }), escrowFunded(), escrowCancelled(), refundRequested({ n: 1, amount: AMOUNT, reason: 'CANCELLED', at: LATER }));
    const { summary } = await apply({ id: 'ntf-3', type: 'refund.succeeded', orderId: ESCROW_ID, refundId: refundId(1), externalReferenceId: 'provider-r1', occurredAt: LATER });
    expect((await events()).at(-1)).toMatchObject({ type: 'EscrowRefundCompleted', data: { refundId: refundId(1), externalReferenceId: 'provider-r1', completedAt: LATER } });
    expect(summary.pendingRefunds).toEqual([]);
  });

  it('refuses a report missing what it needs, or of a type it does not know, recording nothing', async () => {
    await recorded(escrowCreated({ escrowId: ESCROW_ID }));
    await expect(apply(paymentSucceeded({ externalReferenceId: undefined }))).rejects.toThrow(InvalidInput);
    await expect(apply(paymentSucceeded({ amount: 225.001 }))).rejects.toThrow(InvalidInput);
    await expect(apply(paymentSucceeded({ type: 'payment.pending' as ProviderNotification['type'] }))).rejects.toThrow(InvalidInput);
    expect(await events()).toHaveLength(1);
  });
});
