import { randomUUID } from 'node:crypto';
import { migrate } from '@app/database';
import { santim } from '@app/domain';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { waitFor } from '../../../../test/support/wait';
import { ProviderRejected, type ReceivedNotification } from '../payment-provider.port';
import { CHAPA_SIMULATOR_ACCOUNTS, CHAPA_SIMULATOR_OTP, CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../testing/chapa-simulator';
import { notificationEndpoint } from '../testing/notification-endpoint';
import { type ProviderHarness, providerContract } from '../testing/provider.contract';
import { CHAPA_MIGRATIONS } from './chapa.migrations';
import { chapaSignature, readChapaNotification } from './chapa-notification';
import { ChapaProvider } from './chapa-provider';
import { txRefFor } from './chapa-references';

const KEYS = { secretKey: 'CHASECK_TEST-k3yOfTheTestAccount', encryptionKey: 'EncryptionKey24Character', webhookSecret: 'the-webhook-secret-hash' };

const chargeOf = (simulator: ChapaSimulator, orderId: string) => [...simulator.charges.keys()].find((txRef) => txRef.startsWith(orderId))!;

describe('ChapaProvider against the Chapa simulator', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('chapa');
    await migrate(schema.client, schema.schema, 'chapa-provider', CHAPA_MIGRATIONS);
  });
  afterAll(() => schema.drop());

  async function open() {
    const receiver = await notificationEndpoint((received) => readChapaNotification(received, KEYS.webhookSecret));
    const simulator = new ChapaSimulator({ ...KEYS, webhookUrl: () => `${receiver.baseUrl}/v1/providers/chapa/notifications`, delayMs: 50 });
    const baseUrl = await simulator.start();
    const make = () => new ChapaProvider({ db: schema.client, ...KEYS, baseUrl });
    return { provider: make(), make, simulator, baseUrl, received: receiver.received, receiver };
  }

  providerContract(async (): Promise<ProviderHarness> => {
    const { provider, make, simulator, received, receiver } = await open();
    return {
      provider,
      phones: {
        approves: CHAPA_SIMULATOR_PHONES.approves,
        declines: CHAPA_SIMULATOR_PHONES.declines,
        neverAnswers: CHAPA_SIMULATOR_PHONES.neverAnswers,
        refundRefused: CHAPA_SIMULATOR_PHONES.refundRefused,
      },
      methods: { push: 'telebirr', otp: 'amole' },
      // Bank codes as Chapa's GET /banks names them (telebirr is a "bank" there too).
      transferTo: {
        pays: { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName: 'Abebe Kebede' },
        refused: { kind: 'bank', institution: '946', accountNumber: CHAPA_SIMULATOR_ACCOUNTS.refused, holderName: 'Abebe Kebede' },
        bounces: { kind: 'bank', institution: '946', accountNumber: CHAPA_SIMULATOR_ACCOUNTS.bounces, holderName: 'Abebe Kebede' },
      },
      otp: CHAPA_SIMULATOR_OTP,
      received,
      repeat: async (orderId) => simulator.sendWebhook(simulator.chargeWebhook(chargeOf(simulator, orderId))),
      contradict: async (orderId) => simulator.sendWebhook(simulator.chargeWebhook(chargeOf(simulator, orderId), 'failed')),
      loseRefundAnswer: async (send) => {
        simulator.refundAnswersToLose = 1;
        await send().catch(() => undefined);
      },
      refundsMade: async (orderId) => [...simulator.refunds.values()].filter((r) => r.txRef.startsWith(orderId)).length,
      setReceiverDown: receiver.setDown,
      reopen: async () => make(),
      close: async () => {
        await simulator.close();
        await receiver.close();
      },
    };
  });

  describe('beyond the contract', () => {
    let harness: Awaited<ReturnType<typeof open>>;
    beforeEach(async () => (harness = await open()));
    afterEach(async () => {
      await harness.simulator.close();
      await harness.receiver.close();
    });

    const push = (phone: string, method = 'telebirr') => ({
      orderId: `ord_${randomUUID().replace(/-/g, '')}`,
      attemptId: `att_${randomUUID()}`,
      phone,
      amount: santim(50_000),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      method,
      customer: { name: 'Abebe Bikila Kebede', email: 'abebe@example.com' },
    });

    it('charges the wallet as Chapa documents: the method as type, birr as text, the local phone, the derived tx_ref, the key as bearer', async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves);
      const accepted = await harness.provider.initiatePush(request);
      expect(accepted).toEqual({ providerReference: txRefFor(request.orderId, request.attemptId), otpRequired: false });
      const [call] = harness.simulator.requests.filter((r) => r.path.startsWith('/v1/charges'));
      expect(call).toMatchObject({ method: 'POST', path: '/v1/charges?type=telebirr', authorized: true });
      expect(JSON.parse(call.body)).toEqual({
        amount: '500',
        currency: 'ETB',
        tx_ref: accepted.providerReference,
        mobile: '0911000000',
        first_name: 'Abebe',
        last_name: 'Bikila Kebede',
        email: 'abebe@example.com',
      });
      expect(call.body).not.toContain(KEYS.secretKey);
    });

    it('refuses a push the wallet cannot take (an 09… number for M-Pesa), and a second method for the same attempt finds nothing pushed', async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves, 'mpesa');
      const refused = await harness.provider.initiatePush(request).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ProviderRejected);
      expect((refused as ProviderRejected).code).toBe('PUSH_REFUSED');
      expect((refused as Error).message).toMatch(/mobile/);
      expect(harness.simulator.charges.size).toBe(0);
      // An M-Pesa number is taken.
      await harness.provider.initiatePush(push(CHAPA_SIMULATOR_PHONES.mpesa, 'mpesa'));
      expect(harness.simulator.charges.size).toBe(1);
    });

    it('finds the push a crash lost the answer to: Chapa refuses the reused tx_ref, and the charge made is the one answered', async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves);
      await harness.provider.initiatePush(request);
      // Another database (as if the record was never written): the adapter must not push twice.
      const amnesiac = await createTestSchema('chapa_lost');
      try {
        await migrate(amnesiac.client, amnesiac.schema, 'chapa-provider', CHAPA_MIGRATIONS);
        const restarted = new ChapaProvider({ db: amnesiac.client, ...KEYS, baseUrl: harness.baseUrl });
        expect(await restarted.initiatePush(request)).toEqual({ providerReference: txRefFor(request.orderId, request.attemptId), otpRequired: false });
        expect(harness.simulator.charges.size).toBe(1);
      } finally {
        await amnesiac.drop();
      }
    });

    it('sends the one-time code 3DES-encrypted with the requestID, never in clear', async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves, 'amole');
      const accepted = await harness.provider.initiatePush(request);
      await harness.provider.confirmOtp(request.orderId, accepted.providerReference, CHAPA_SIMULATOR_OTP);
      const [validate] = harness.simulator.requests.filter((r) => r.path.startsWith('/v1/validate'));
      expect(validate.path).toBe('/v1/validate?type=amole');
      expect(Object.keys(JSON.parse(validate.body)).sort()).toEqual(['client', 'reference']);
      expect(validate.body).not.toContain(CHAPA_SIMULATOR_OTP);
      await waitFor(async () => harness.received.find((n) => n.orderId === request.orderId), 'the payment notification');
      // A code for another order's push is refused without asking Chapa.
      await expect(harness.provider.confirmOtp('ord_00000000000000000000000000000000', accepted.providerReference, CHAPA_SIMULATOR_OTP)).rejects.toMatchObject({ code: 'UNKNOWN_PUSH' });
    });

    const paidRefund = async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves);
      await harness.provider.initiatePush(request);
      const paid = await waitFor(async () => harness.received.find((n) => n.orderId === request.orderId), 'the payment notification');
      return { refundId: `${request.orderId}-refund-1`, orderId: request.orderId, paymentReferenceId: paid.externalReferenceId!, amount: santim(20_000), phone: request.phone };
    };
    const refundPosts = () => harness.simulator.requests.filter((r) => r.path.startsWith('/v1/refund/') && r.method === 'POST');
    /** What a job leaves that claimed the refund and died before its answer, and how its claim looks once it lapsed. */
    const claimLeftBy = (refundId: string, until: 'held' | 'lapsed') =>
      schema.client.query(
        `INSERT INTO chapa_refunds (refund_id, reference, attempt, sends, claimed_until) VALUES ($1, $1, 1, 1, now() + interval '1 hour' * $2)`,
        [refundId, until === 'held' ? 1 : -1],
      );

    it('sends nothing while another job’s claim on the refund is held, and sends it once that claim lapsed (its job died before sending)', async () => {
      const refund = await paidRefund();
      await claimLeftBy(refund.refundId, 'held');
      expect(await harness.provider.refund(refund)).toEqual({ state: 'pending' });
      expect(await harness.provider.refundStatus(refund)).toEqual({ state: 'pending' });
      expect(refundPosts()).toHaveLength(0);
      await schema.client.query(`UPDATE chapa_refunds SET claimed_until = now() - interval '1 second' WHERE refund_id = $1`, [refund.refundId]);
      expect(['pending', 'succeeded']).toContain((await harness.provider.refund(refund)).state);
      expect(refundPosts().map((r) => (JSON.parse(r.body) as { reference: string }).reference)).toEqual([refund.refundId]);
      await waitFor(async () => (await harness.provider.refundStatus(refund)).state === 'succeeded', 'the refund to succeed');
    });

    it('resumes the claim of a job that died waiting for Chapa’s answer: nothing is sent while it is held, and once it lapsed the same reference is sent, refused as used and taken as pending', async () => {
      harness.simulator.findsRefundsByOurReference = false;
      const refund = await paidRefund();
      harness.simulator.refundAnswersToLose = 1;
      await expect(harness.provider.refund(refund)).rejects.toThrow();
      // As the job would have left it had it died waiting rather than lost the answer: still claimed.
      await schema.client.query(`UPDATE chapa_refunds SET claimed_until = now() + interval '1 hour' WHERE refund_id = $1`, [refund.refundId]);
      expect(await harness.provider.refund(refund)).toEqual({ state: 'pending' });
      expect(refundPosts()).toHaveLength(1);
      await schema.client.query(`UPDATE chapa_refunds SET claimed_until = now() - interval '1 second' WHERE refund_id = $1`, [refund.refundId]);
      expect(await harness.provider.refund(refund)).toEqual({ state: 'pending' });
      expect(refundPosts().map((r) => (JSON.parse(r.body) as { reference: string }).reference)).toEqual([refund.refundId, refund.refundId]);
      expect([...harness.simulator.refunds.values()].filter((r) => r.txRef.startsWith(refund.orderId))).toHaveLength(1);
    });

    it('takes a refusal of a reference it sent before as a refund that exists, and completes it by its webhook, when Chapa finds refunds by ref_id only', async () => {
      harness.simulator.findsRefundsByOurReference = false;
      const refund = await paidRefund();
      harness.simulator.refundAnswersToLose = 1;
      await expect(harness.provider.refund(refund)).rejects.toThrow();
      expect(await harness.provider.refund(refund)).toEqual({ state: 'pending' });
      expect(refundPosts().map((r) => (JSON.parse(r.body) as { reference: string }).reference)).toEqual([refund.refundId, refund.refundId]);
      const notification = await waitFor(async () => harness.received.find((n) => n.refundId === refund.refundId), 'the refund webhook');
      expect(notification).toMatchObject({ type: 'refund.succeeded', orderId: refund.orderId });
      expect([...harness.simulator.refunds.values()].filter((r) => r.txRef.startsWith(refund.orderId))).toHaveLength(1);
    });

    it('asks a refund Chapa failed again under a new reference', async () => {
      const request = push(CHAPA_SIMULATOR_PHONES.approves);
      await harness.provider.initiatePush(request);
      const paid = await waitFor(async () => harness.received.find((n) => n.orderId === request.orderId), 'the payment notification');
      const refund = { refundId: `${request.orderId}-refund-1`, orderId: request.orderId, paymentReferenceId: paid.externalReferenceId!, amount: santim(20_000), phone: request.phone };
      await harness.provider.refund(refund);
      harness.simulator.failRefund([...harness.simulator.refunds.keys()][0]);
      expect(await harness.provider.refundStatus(refund)).toMatchObject({ state: 'failed' });
      await harness.provider.refund(refund);
      const references = harness.simulator.requests.filter((r) => r.path.startsWith('/v1/refund/') && r.method === 'POST').map((r) => JSON.parse(r.body) as { reference: string; amount: string; meta: unknown });
      expect(references.map((r) => r.reference)).toEqual([refund.refundId, `${refund.refundId}-try-2`]);
      expect(references[0]).toMatchObject({ amount: '200', meta: { refund_id: refund.refundId } });
    });
  });
});

describe('reading a Chapa webhook', () => {
  const SECRET = 'the-webhook-secret-hash';
  const orderId = `ord_${'a'.repeat(32)}`;
  const txRef = txRefFor(orderId, 'att_1');
  const signed = (payload: unknown, header = 'x-chapa-signature'): ReceivedNotification => {
    const body = JSON.stringify(payload);
    return { headers: { [header]: chapaSignature(SECRET, body) }, body };
  };
  const success = { event: 'charge.success', tx_ref: txRef, reference: 'CHABC123', amount: '100.50', currency: 'ETB', status: 'success', payment_method: 'telebirr', updated_at: '2026-11-24T10:00:00.000000Z' };

  it('reads a payment, with its amount, currency, method and Chapa’s reference', () => {
    expect(readChapaNotification(signed(success), SECRET)).toEqual({
      id: 'charge.success:CHABC123',
      type: 'payment.succeeded',
      orderId,
      externalReferenceId: 'CHABC123',
      amount: 100.5,
      currency: 'ETB',
      paymentType: 'TELEBIRR',
      occurredAt: '2026-11-24T10:00:00.000Z',
    });
  });

  it('refuses a body whose signature is missing, wrong, or does not sign this body', () => {
    expect(readChapaNotification({ headers: {}, body: JSON.stringify(success) }, SECRET)).toBeUndefined();
    expect(readChapaNotification({ headers: { 'x-chapa-signature': chapaSignature('another-secret', JSON.stringify(success)) }, body: JSON.stringify(success) }, SECRET)).toBeUndefined();
    const tampered = signed(success);
    expect(readChapaNotification({ ...tampered, body: tampered.body.replace('100.50', '999.00') }, SECRET)).toBeUndefined();
    // Chapa-Signature is taken too, when it signs the body.
    expect(readChapaNotification(signed(success, 'chapa-signature'), SECRET)).toMatchObject({ type: 'payment.succeeded' });
  });

  it('ignores what is not about our orders, and reads a repeated webhook as the same notification', () => {
    expect(readChapaNotification(signed({ event: 'payout.success', type: 'Payout', reference: 'x' }), SECRET)).toBe('ignored');
    expect(readChapaNotification(signed({ ...success, tx_ref: 'payment-link-123' }), SECRET)).toBe('ignored');
    expect(readChapaNotification(signed(success), SECRET)).toEqual(readChapaNotification(signed(success), SECRET));
  });

  it('refuses a signed webhook it cannot read rather than writing nonsense', () => {
    expect(() => readChapaNotification(signed({ ...success, amount: '1e3' }), SECRET)).toThrow(/amount/);
    expect(() => readChapaNotification(signed({ ...success, reference: { $ne: 1 } }), SECRET)).toThrow(/reference/);
    expect(() => readChapaNotification({ headers: { 'x-chapa-signature': chapaSignature(SECRET, 'not json') }, body: 'not json' }, SECRET)).toThrow(/JSON/);
  });

  it('reads a refund by the refund id it was asked with, and a failure', () => {
    expect(readChapaNotification(signed({ event: 'charge.refunded', tx_ref: txRef, ref_id: 'CHREF1', meta: { refund_id: `${orderId}-refund-1` } }), SECRET)).toMatchObject({
      type: 'refund.succeeded',
      orderId,
      refundId: `${orderId}-refund-1`,
      externalReferenceId: 'CHREF1',
    });
    expect(readChapaNotification(signed({ ...success, event: 'charge.failed', status: 'failed' }), SECRET)).toMatchObject({ type: 'payment.failed', reason: 'DECLINED' });
  });
});
