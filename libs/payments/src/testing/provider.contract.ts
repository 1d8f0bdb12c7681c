import { randomUUID } from 'node:crypto';
import { type Santim, santim } from '@app/domain';
import { waitFor } from '../../../../test/support/wait';
import { type PaymentProvider, type ProviderNotification, ProviderRejected, type PushRequest, type TransferDestination } from '../payment-provider.port';

/** A provider under test, with the means to script its customers and watch what it tells us. */
export interface ProviderHarness {
  provider: PaymentProvider;
  /** Phones whose customer approves, declines (insufficient funds), never answers, or whose refunds the provider refuses. */
  phones: { approves: string; declines: string; neverAnswers: string; refundRefused: string };
  /** A method settled by the push alone, and one that asks for a one-time code (and the code its test customer types). */
  methods: { push: string; otp: string };
  otp: string;
  /** Every notification that reached our endpoint, verified and parsed, in arrival order. */
  received: ProviderNotification[];
  /** Destinations a transfer is paid to, refused for at once, or taken for and then failed (bounced). */
  transferTo: { pays: TransferDestination; refused: TransferDestination; bounces: TransferDestination };
  /** The provider reports again what it last reported about this order (a duplicate delivery). */
  repeat(orderId: string): Promise<void>;
  /** The provider reports the order's payment failed after it reported it succeeded (out of order). */
  contradict(orderId: string): Promise<void>;
  /** Runs a refund request whose answer never reaches the caller: the provider acts on it, the connection drops. */
  loseRefundAnswer(send: () => Promise<unknown>): Promise<void>;
  /** How many refunds the provider made of the order's payment, whatever it answered. */
  refundsMade(orderId: string): Promise<number>;
  /** Makes our endpoint refuse connections (true) or take them again (false). */
  setReceiverDown(down: boolean): Promise<void>;
  /** Another instance over the same provider (a restarted process): it must answer the same. */
  reopen(): Promise<PaymentProvider>;
  close(): Promise<void>;
}

let pushMethod = '';
const push = (phone: string, method = pushMethod, amount: Santim = santim(12_345)): PushRequest => ({
  orderId: `ord_${randomUUID().replace(/-/g, '')}`,
  attemptId: `att_${randomUUID().replace(/-/g, '')}`,
  phone,
  amount,
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  method,
  customer: { name: 'Abebe Kebede', email: 'abebe@example.com' },
});

/**
 * What every payment provider adapter must do, run against each (the sandbox; Chapa through its
 * simulator). Outcomes arrive asynchronously: they are waited for, never timed.
 */
export function providerContract(open: () => Promise<ProviderHarness>): void {
  let harness: ProviderHarness;
  beforeEach(async () => {
    harness = await open();
    pushMethod = harness.methods.push;
  });
  afterEach(() => harness.close());

  const arrived = (match: (n: ProviderNotification) => boolean, what: string) => waitFor(async () => harness.received.find(match), what);

  it('pushes a payment, answers pending until the customer approves, then notifies and answers succeeded', async () => {
    const request = push(harness.phones.approves);
    const accepted = await harness.provider.initiatePush(request);
    expect(accepted.otpRequired).toBe(false);
    const notification = await arrived((n) => n.orderId === request.orderId && n.type === 'payment.succeeded', 'the payment notification');
    expect(notification).toMatchObject({ amount: 123.45, externalReferenceId: expect.any(String) });
    const status = await harness.provider.paymentStatus({ ...request, providerReference: accepted.providerReference });
    expect(status).toMatchObject({ state: 'succeeded', amount: request.amount, externalReferenceId: notification.externalReferenceId });
  });

  it('treats a push repeated under the same attempt id as the first: the same reference, no second push', async () => {
    const request = push(harness.phones.approves);
    const first = await harness.provider.initiatePush(request);
    const again = await harness.provider.initiatePush(request);
    expect(again).toEqual(first);
    await arrived((n) => n.orderId === request.orderId, 'the payment notification');
    // A later push for the same order is another attempt, and notifies again.
    const other = await harness.provider.initiatePush({ ...request, attemptId: `att_${randomUUID().replace(/-/g, '')}` });
    expect(other.providerReference).not.toBe(first.providerReference);
    await waitFor(async () => harness.received.filter((n) => n.orderId === request.orderId).length === 2, 'the second attempt’s notification');
    // Two pushes, two payments: the repeated request pushed nothing of its own.
    expect(new Set(harness.received.filter((n) => n.orderId === request.orderId).map((n) => n.externalReferenceId)).size).toBe(2);
  });

  it('reports a payment delivered again, or contradicted late, under the same reference, so it is applied once', async () => {
    const request = push(harness.phones.approves);
    await harness.provider.initiatePush(request);
    const paid = await arrived((n) => n.orderId === request.orderId && n.type === 'payment.succeeded', 'the payment notification');
    await harness.repeat(request.orderId);
    await waitFor(async () => harness.received.filter((n) => n.orderId === request.orderId).length === 2, 'the repeated notification');
    expect(harness.received.filter((n) => n.orderId === request.orderId)[1]).toEqual(paid);
    await harness.contradict(request.orderId);
    const late = await arrived((n) => n.orderId === request.orderId && n.type === 'payment.failed', 'the late failure');
    expect(late.externalReferenceId).toBe(paid.externalReferenceId);
    expect(late.id).not.toBe(paid.id);
  });

  it('reports a declined payment as failed, by notification and when asked', async () => {
    const request = push(harness.phones.declines);
    const accepted = await harness.provider.initiatePush(request);
    const notification = await arrived((n) => n.orderId === request.orderId, 'the failure notification');
    expect(notification).toMatchObject({ type: 'payment.failed', reason: expect.any(String) });
    expect(await harness.provider.paymentStatus({ ...request, providerReference: accepted.providerReference })).toMatchObject({ state: 'failed' });
  });

  it('asks for a one-time code, refuses a wrong one, and settles after the right one', async () => {
    const request = push(harness.phones.approves, harness.methods.otp);
    expect(harness.provider.methods.find((m) => m.id === harness.methods.otp)?.otpRequired).toBe(true);
    const accepted = await harness.provider.initiatePush(request);
    expect(accepted.otpRequired).toBe(true);
    const attempt = { ...request, providerReference: accepted.providerReference };
    expect(await harness.provider.paymentStatus(attempt)).toEqual({ state: 'pending' });
    await expect(harness.provider.confirmOtp(request.orderId, accepted.providerReference, '000000')).rejects.toBeInstanceOf(ProviderRejected);
    await harness.provider.confirmOtp(request.orderId, accepted.providerReference, harness.otp);
    await arrived((n) => n.orderId === request.orderId && n.type === 'payment.succeeded', 'the payment notification');
    expect(await harness.provider.paymentStatus(attempt)).toMatchObject({ state: 'succeeded' });
  });

  it('answers pending for a customer who never answers, and unknown for a push it never had', async () => {
    const request = push(harness.phones.neverAnswers);
    const accepted = await harness.provider.initiatePush(request);
    expect(await harness.provider.paymentStatus({ ...request, providerReference: accepted.providerReference })).toEqual({ state: 'pending' });
    expect(await harness.provider.paymentStatus({ ...push(harness.phones.approves), providerReference: 'NO-SUCH-REFERENCE' })).toEqual({ state: 'unknown' });
    expect(await harness.provider.refundStatus({ orderId: request.orderId, refundId: 'no-such-refund' })).toEqual({ state: 'unknown' });
  });

  it('refunds, answers a repeated refund request with its current state, and reports it succeeded', async () => {
    const request = push(harness.phones.approves);
    const accepted = await harness.provider.initiatePush(request);
    const paid = await arrived((n) => n.orderId === request.orderId, 'the payment notification');
    const refund = { refundId: `${request.orderId}-refund-1`, orderId: request.orderId, paymentReferenceId: paid.externalReferenceId ?? accepted.providerReference, amount: request.amount, phone: request.phone };
    expect(['pending', 'succeeded']).toContain((await harness.provider.refund(refund)).state);
    const notification = await arrived((n) => n.refundId === refund.refundId, 'the refund notification');
    expect(notification.type).toBe('refund.succeeded');
    expect(await harness.provider.refund(refund)).toMatchObject({ state: 'succeeded', externalReferenceId: notification.externalReferenceId });
    expect(await harness.provider.refundStatus(refund)).toMatchObject({ state: 'succeeded' });
    expect(harness.received.filter((n) => n.refundId === refund.refundId)).toHaveLength(1);
  });

  const paidRefund = async () => {
    const request = push(harness.phones.approves);
    await harness.provider.initiatePush(request);
    const paid = await arrived((n) => n.orderId === request.orderId && n.type === 'payment.succeeded', 'the payment notification');
    return { refundId: `${request.orderId}-refund-1`, orderId: request.orderId, paymentReferenceId: paid.externalReferenceId!, amount: santim(4_000), phone: request.phone };
  };
  const refundSucceeded = (refund: { orderId: string; refundId: string }) =>
    waitFor(async () => {
      const status = await harness.provider.refundStatus(refund);
      return status.state === 'succeeded' && status;
    }, 'the refund to succeed');

  it('completes a refund whose answer was lost: asked again later, it is neither refused nor made twice', async () => {
    // Found by the chaos run: Chapa made the refund, its answer was cut, and every retry was refused as a reused reference.
    const refund = await paidRefund();
    await harness.loseRefundAnswer(() => harness.provider.refund(refund));
    expect(['pending', 'succeeded']).toContain((await harness.provider.refund(refund)).state);
    const settled = await refundSucceeded(refund);
    expect(await harness.provider.refund(refund)).toEqual(settled);
    expect(await harness.refundsMade(refund.orderId)).toBe(1);
  });

  it('makes one refund of two asked for at once under one refund id, and neither is told it was refused', async () => {
    // Found by the chaos run: a refund's first job and the reconciler's question ran it side by side.
    const refund = await paidRefund();
    const answers = await Promise.allSettled([harness.provider.refund(refund), harness.provider.refund(refund)]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
    const settled = await refundSucceeded(refund);
    expect(await harness.provider.refund(refund)).toEqual(settled);
    expect(await harness.refundsMade(refund.orderId)).toBe(1);
  });

  it('refuses a refund it cannot make now, and has no record of it', async () => {
    const request = push(harness.phones.refundRefused);
    await harness.provider.initiatePush(request);
    const paid = await arrived((n) => n.orderId === request.orderId, 'the payment notification');
    const refund = { refundId: `${request.orderId}-refund-1`, orderId: request.orderId, paymentReferenceId: paid.externalReferenceId!, amount: request.amount, phone: request.phone };
    await expect(harness.provider.refund(refund)).rejects.toBeInstanceOf(ProviderRejected);
    expect(await harness.provider.refundStatus(refund)).toEqual({ state: 'unknown' });
  });

  it('answers from its own records after a restart: another instance gives the same answers', async () => {
    const request = push(harness.phones.approves);
    const accepted = await harness.provider.initiatePush(request);
    await arrived((n) => n.orderId === request.orderId, 'the payment notification');
    const restarted = await harness.reopen();
    expect(await restarted.paymentStatus({ ...request, providerReference: accepted.providerReference })).toMatchObject({ state: 'succeeded', amount: request.amount });
    expect(await restarted.initiatePush(request)).toEqual(accepted);
  });

  const transferReference = () => `po_${randomUUID().replace(/-/g, '')}`;

  it('pays a transfer out, pending until the provider settles it; the same reference again is the same transfer', async () => {
    const request = { reference: transferReference(), amount: santim(250_075), destination: harness.transferTo.pays };
    const first = await harness.provider.transfer(request);
    expect(['pending', 'succeeded']).toContain(first.state);
    const settled = await waitFor(async () => {
      const status = await harness.provider.transferStatus(request.reference);
      return status.state === 'succeeded' && status;
    }, 'the transfer to be paid');
    expect(settled).toMatchObject({ externalReferenceId: expect.any(String), at: expect.any(String) });
    expect(await harness.provider.transfer(request)).toEqual(settled);
    expect(await (await harness.reopen()).transferStatus(request.reference)).toEqual(settled);
  });

  it('makes one transfer of two asked for at once under one reference, and neither is told it was refused', async () => {
    // Found by the chaos run: a payout's job run twice at once (a restart's re-queue beside the first run).
    const request = { reference: transferReference(), amount: santim(10_000), destination: harness.transferTo.pays };
    const answers = await Promise.allSettled([harness.provider.transfer(request), harness.provider.transfer(request)]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled']);
    const settled = await waitFor(async () => {
      const status = await harness.provider.transferStatus(request.reference);
      return status.state === 'succeeded' && status;
    }, 'the transfer to be paid');
    expect(await harness.provider.transfer(request)).toEqual(settled);
  });

  it('refuses a transfer to an account it cannot pay, and has no record of it', async () => {
    const request = { reference: transferReference(), amount: santim(100), destination: harness.transferTo.refused };
    await expect(harness.provider.transfer(request)).rejects.toBeInstanceOf(ProviderRejected);
    expect(await harness.provider.transferStatus(request.reference)).toEqual({ state: 'unknown' });
  });

  it('reports a transfer that bounced as failed', async () => {
    const request = { reference: transferReference(), amount: santim(100), destination: harness.transferTo.bounces };
    await harness.provider.transfer(request);
    const failed = await waitFor(async () => {
      const status = await harness.provider.transferStatus(request.reference);
      return status.state === 'failed' && status;
    }, 'the transfer to fail');
    expect(failed.reason.length).toBeGreaterThan(0);
  });

  it('delivers a notification again until it is acknowledged (our endpoint was down when it was due)', async () => {
    await harness.setReceiverDown(true);
    const request = push(harness.phones.approves);
    await harness.provider.initiatePush(request);
    // Down past the moment the outcome is due: the first delivery is refused.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(harness.received.filter((n) => n.orderId === request.orderId)).toHaveLength(0);
    await harness.setReceiverDown(false);
    await arrived((n) => n.orderId === request.orderId && n.type === 'payment.succeeded', 'the notification delivered again');
  });
}
