import { randomUUID } from 'node:crypto';
import { migrate } from '@app/database';
import { santim } from '@app/domain';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { signNotification, PROVIDER_SIGNATURE_HEADER, PROVIDER_TIMESTAMP_HEADER } from '../notification-signature';
import type { ProviderNotification } from '../payment-provider.port';
import { notificationEndpoint } from '../testing/notification-endpoint';
import { type ProviderHarness, providerContract } from '../testing/provider.contract';
import { readSandboxNotification } from './sandbox-notification';
import { SANDBOX_MIGRATIONS } from './sandbox.migrations';
import { SANDBOX_OTP, SANDBOX_PHONES, SANDBOX_TRANSFER_ACCOUNTS } from './sandbox-phones';
import { SandboxProvider } from './sandbox-provider';

const SECRET = Buffer.alloc(32, 7);

describe('SandboxProvider', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('sandbox');
    await migrate(schema.client, schema.schema, 'sandbox-provider', SANDBOX_MIGRATIONS);
  });
  afterAll(() => schema.drop());

  providerContract(async (): Promise<ProviderHarness> => {
    const receiver = await notificationEndpoint((received) => readSandboxNotification(received, SECRET));
    const { received, bodies } = receiver;
    /** Posts a body signed as the sandbox signs, as its notifier would. */
    const deliver = async (body: string) => {
      const timestamp = String(Date.now());
      await fetch(`${receiver.baseUrl}/v1/providers/sandbox/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PROVIDER_TIMESTAMP_HEADER]: timestamp, [PROVIDER_SIGNATURE_HEADER]: signNotification(SECRET, timestamp, body) },
        body,
      });
    };
    const lastAbout = (orderId: string) => bodies.filter((body) => (JSON.parse(body) as ProviderNotification).orderId === orderId).at(-1)!;
    const instances: SandboxProvider[] = [];
    const make = () => {
      const provider = new SandboxProvider({ db: schema.client, notificationSecret: SECRET, notifyBaseUrl: () => receiver.baseUrl, delayMs: 50 });
      instances.push(provider);
      return provider;
    };
    return {
      provider: make(),
      phones: {
        approves: SANDBOX_PHONES.succeeds,
        declines: SANDBOX_PHONES.insufficientFunds,
        neverAnswers: SANDBOX_PHONES.neverAnswers,
        refundRefused: SANDBOX_PHONES.refundsRejected,
      },
      methods: { push: 'sandbox-ussd', otp: 'sandbox-otp' },
      transferTo: {
        pays: { kind: 'wallet', institution: 'telebirr', accountNumber: '0911000000', holderName: 'Abebe Kebede' },
        refused: { kind: 'bank', institution: 'CBE', accountNumber: SANDBOX_TRANSFER_ACCOUNTS.refused, holderName: 'Abebe Kebede' },
        bounces: { kind: 'bank', institution: 'CBE', accountNumber: SANDBOX_TRANSFER_ACCOUNTS.bounces, holderName: 'Abebe Kebede' },
      },
      otp: SANDBOX_OTP,
      received,
      // The sandbox's notifier delivers the very same body again.
      repeat: (orderId) => deliver(lastAbout(orderId)),
      contradict: (orderId) => {
        const paid = JSON.parse(lastAbout(orderId)) as ProviderNotification;
        return deliver(JSON.stringify({ ...paid, id: `ntf_${randomUUID()}`, type: 'payment.failed', amount: undefined, reason: 'REVERSED', occurredAt: new Date().toISOString() }));
      },
      // The sandbox answers in-process: the caller drops its answer.
      loseRefundAnswer: async (send) => {
        await send().catch(() => undefined);
      },
      refundsMade: async (orderId) => {
        const [row] = await schema.client.query<{ made: string }>(`SELECT count(*) AS made FROM sandbox_refunds WHERE order_id = $1`, [orderId]);
        return Number(row.made);
      },
      setReceiverDown: receiver.setDown,
      reopen: async () => make(),
      close: async () => {
        for (const instance of instances) instance.close();
        await receiver.close();
      },
    };
  });

  it('says when a transfer under way settles: its delay after it was asked for', async () => {
    const provider = new SandboxProvider({ db: schema.client, notificationSecret: SECRET, notifyBaseUrl: () => 'http://127.0.0.1:9', delayMs: 3_600_000 });
    try {
      const reference = `po_${randomUUID().replace(/-/g, '')}`;
      const before = Date.now();
      const sent = await provider.transfer({ reference, amount: santim(100), destination: { kind: 'wallet', institution: 'telebirr', accountNumber: '0911000000', holderName: 'Abebe Kebede' } });
      const after = Date.now();
      expect(sent).toEqual({ state: 'pending', expectedAt: expect.any(String) });
      const expectedAt = Date.parse((sent as { expectedAt: string }).expectedAt);
      expect(expectedAt).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(expectedAt).toBeLessThanOrEqual(after + 3_600_000);
      expect(await provider.transferStatus(reference)).toEqual(sent);
    } finally {
      provider.close();
    }
  });
});
