import { randomUUID } from 'node:crypto';
import { parseStatement, type ProviderMovement, reconcile } from '@app/audit';
import { migrate } from '@app/database';
import { addisDayOf, type Santim, santim } from '@app/domain';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { waitFor } from '../../../../test/support/wait';
import { CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../testing/chapa-simulator';
import { notificationEndpoint } from '../testing/notification-endpoint';
import { CHAPA_MIGRATIONS } from './chapa.migrations';
import { readChapaNotification } from './chapa-notification';
import { ChapaProvider } from './chapa-provider';

const KEYS = { secretKey: 'CHASECK_TEST-k3yOfTheTestAccount', encryptionKey: 'EncryptionKey24Character', webhookSecret: 'the-webhook-secret-hash' };

/**
 * The Chapa simulator's statement read back by the reconciliation: every reference the adapter
 * reports to our books (and so every reference our events record) is the one the statement shows.
 */
describe("the Chapa simulator's statement", () => {
  let schema: TestSchema;
  let simulator: ChapaSimulator;
  let receiver: Awaited<ReturnType<typeof notificationEndpoint>>;
  let provider: ChapaProvider;

  beforeAll(async () => {
    schema = await createTestSchema('chapa_statement');
    await migrate(schema.client, schema.schema, 'chapa-provider', CHAPA_MIGRATIONS);
    receiver = await notificationEndpoint((received) => readChapaNotification(received, KEYS.webhookSecret));
    simulator = new ChapaSimulator({ ...KEYS, webhookUrl: () => `${receiver.baseUrl}/v1/providers/chapa/notifications`, delayMs: 20 });
    provider = new ChapaProvider({ db: schema.client, ...KEYS, baseUrl: await simulator.start() });
  });
  afterAll(async () => {
    await simulator.close();
    await receiver.close();
    await schema.drop();
  });

  const push = (phone: string) => ({
    orderId: `ord_${randomUUID().replace(/-/g, '')}`,
    attemptId: `att_${randomUUID()}`,
    phone,
    amount: santim(50_000),
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    method: 'telebirr',
    customer: { name: 'Abebe Kebede' },
  });

  it('lists payments, refunds and payouts under the references the adapter reported, and our movements match it', async () => {
    const paid = push(CHAPA_SIMULATOR_PHONES.approves);
    const { providerReference: txRef } = await provider.initiatePush(paid);
    const declined = push(CHAPA_SIMULATOR_PHONES.declines);
    await provider.initiatePush(declined);
    const payment = await waitFor(async () => {
      const status = await provider.paymentStatus({ ...paid, providerReference: txRef });
      return status.state === 'succeeded' && status;
    }, 'the payment');
    const refundId = `ref_${randomUUID().replace(/-/g, '')}`;
    await provider.refund({ refundId, orderId: paid.orderId, paymentReferenceId: payment.externalReferenceId, amount: santim(10_000), phone: paid.phone });
    const refund = await waitFor(async () => {
      const status = await provider.refundStatus({ refundId });
      return status.state === 'succeeded' && status;
    }, 'the refund');
    const payoutId = `pay_${randomUUID().replace(/-/g, '')}`;
    await provider.transfer({ reference: payoutId, amount: santim(25_050), destination: { kind: 'bank', institution: '946', accountNumber: '1000004321', holderName: 'Abebe Kebede' } });
    const transfer = await waitFor(async () => {
      const status = await provider.transferStatus(payoutId);
      return status.state === 'succeeded' && status;
    }, 'the transfer');
    await waitFor(async () => (await provider.paymentStatus({ ...declined, providerReference: [...simulator.charges.keys()].find((k) => k.startsWith(declined.orderId))! })).state === 'failed', 'the decline');

    const csv = simulator.statement(addisDayOf(new Date()));
    expect(csv).not.toContain('1000004321');
    const lines = parseStatement('chapa', csv);
    expect(lines.map((l) => [l.kind, l.status, l.providerStatus, l.amount])).toEqual(
      expect.arrayContaining([
        ['payment', 'settled', 'success', 50_000],
        ['payment', 'failed', 'failed', 50_000],
        ['refund', 'settled', 'refunded', 10_000],
        ['transfer', 'settled', 'success', 25_050],
      ]),
    );
    expect(lines).toHaveLength(4);

    // What our events record of each: the provider's reference the adapter reported, and our own.
    const at = new Date().toISOString();
    const movement = (kind: ProviderMovement['kind'], providerReference: string, amount: number, reference?: string): ProviderMovement => ({
      eventId: randomUUID(),
      streamId: `order-${paid.orderId}`,
      eventType: kind,
      kind,
      providerReference,
      ...(reference ? { reference } : {}),
      amount: amount as Santim,
      at,
    });
    const report = reconcile({
      lines,
      movements: [movement('payment', payment.externalReferenceId, 50_000), movement('refund', refund.externalReferenceId, 10_000, refundId), movement('transfer', transfer.externalReferenceId, 25_050, payoutId)],
    });
    expect(report.counts).toEqual({ lines: 4, movements: 3, matched: 4, missingOnOurSide: 0, missingOnTheirSide: 0, amountMismatch: 0, statusMismatch: 0 });
    expect(report.matched.find((m) => m.line.kind === 'payment' && m.movement)?.line.reference).toBe(txRef);
  });
});
