import { randomUUID } from 'node:crypto';
import type { CommandBus } from '@nestjs/cqrs';
import { migrate } from '@app/database';
import { type PayableSummary, type PaymentCommand, santim } from '@app/domain';
import { systemClock } from '@app/infrastructure';
import { createTestSchema, type TestSchema } from '../../../../../test/support/postgres';
import { waitFor } from '../../../../../test/support/wait';
import { CHAPA_MIGRATIONS } from '../../chapa/chapa.migrations';
import { ChapaProvider } from '../../chapa/chapa-provider';
import { CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../../testing/chapa-simulator';
import type { ApplyNotificationCommand } from '../apply-notification/apply-notification.command';
import type { PaymentFlow } from '../payment-flow';
import { ProcessRefundCommand } from './process-refund.command';
import { ProcessRefundHandler } from './process-refund.handler';
import { PaymentProviders } from '../../payment-providers';

const KEYS = { secretKey: 'CHASECK_TEST-k3yOfTheTestAccount', encryptionKey: 'EncryptionKey24Character', webhookSecret: 'the-webhook-secret-hash' };

/**
 * The refund job as the scheduler runs it, against Chapa's simulator: found by the chaos run, a
 * refund's first job and the reconciler's question for it ran side by side and both sent it.
 */
describe('ProcessRefundHandler with Chapa', () => {
  let schema: TestSchema;
  let simulator: ChapaSimulator;
  let provider: ChapaProvider;
  beforeAll(async () => {
    schema = await createTestSchema('process_refund');
    await migrate(schema.client, schema.schema, 'chapa-provider', CHAPA_MIGRATIONS);
    // Webhooks are not what this is about: they go nowhere, and the simulator gives up on them at close.
    simulator = new ChapaSimulator({ ...KEYS, webhookUrl: () => 'http://127.0.0.1:9/', delayMs: 50 });
    provider = new ChapaProvider({ db: schema.client, ...KEYS, baseUrl: await simulator.start() });
  });
  afterAll(async () => {
    await simulator.close();
    await schema.drop();
  });

  /** An order paid through Chapa with one refund pending, and the commands the job runs on it. */
  async function paidOrderWithRefund() {
    const orderId = `ord_${randomUUID().replace(/-/g, '')}`;
    const { providerReference } = await provider.initiatePush({
      orderId,
      attemptId: `att_${randomUUID()}`,
      phone: CHAPA_SIMULATOR_PHONES.approves,
      amount: santim(10_000),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      method: 'telebirr',
      customer: { name: 'Abebe Kebede' },
    });
    const charge = await waitFor(async () => simulator.charges.get(providerReference)?.status === 'success' && simulator.charges.get(providerReference), 'the payment');
    const refundId = `${orderId}-refund-1`;
    const summary = { id: orderId, phone: CHAPA_SIMULATOR_PHONES.approves, pendingRefunds: [{ refundId, amount: santim(4_000), paymentReferenceId: charge.reference }] };
    const commands: PaymentCommand[] = [];
    const flow = {
      load: async () => summary as unknown as PayableSummary,
      run: async (_id: string, command: PaymentCommand) => {
        commands.push(command);
        return { summary, events: [] };
      },
    } as unknown as PaymentFlow;
    const applied: ApplyNotificationCommand[] = [];
    const bus = { execute: async (command: ApplyNotificationCommand) => void applied.push(command) } as unknown as CommandBus;
    const handler = new ProcessRefundHandler(flow, new PaymentProviders(provider, provider, { modeOf: async () => 'live' }), bus, systemClock);
    const posts = () => simulator.requests.filter((r) => r.method === 'POST' && r.path === `/v1/refund/${charge.reference}`);
    return { handler, command: new ProcessRefundCommand(orderId, refundId), commands, applied, posts, refundId };
  }

  it('sends a refund once when two jobs run it at once, and records no refusal', async () => {
    const { handler, command, commands, posts, refundId } = await paidOrderWithRefund();
    const progress = await Promise.all([handler.execute(command), handler.execute(command)]);
    expect(progress.every((p) => p === 'pending' || p === 'settled')).toBe(true);
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(posts()[0].body)).toMatchObject({ reference: refundId, amount: '40' });
    expect(commands).toEqual([]);
  });

  it('completes a refund whose answer was lost: asked again, it sends nothing more and finds it made', async () => {
    const { handler, command, commands, applied, posts, refundId } = await paidOrderWithRefund();
    simulator.refundAnswersToLose = 1;
    await expect(handler.execute(command)).rejects.toThrow();
    expect(posts()).toHaveLength(1);
    const [made] = [...simulator.refunds.values()].filter((r) => r.reference === refundId);
    await waitFor(async () => made.status === 'success', 'Chapa to pay the refund out');
    expect(await handler.execute(command)).toBe('settled');
    expect(posts()).toHaveLength(1);
    expect(commands).toEqual([]);
    expect(applied.map((c) => c.notification)).toEqual([expect.objectContaining({ type: 'refund.succeeded', refundId, externalReferenceId: made.refId })]);
  });
});
