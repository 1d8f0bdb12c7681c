import { attemptIdFor, PayableNotFound, santim, streams } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner, systemClock } from '@app/infrastructure';
import { InMemoryEventStore } from '../../../../event-store/src/testing/in-memory-event-store';
import { type PaymentProvider, ProviderRejected, type PushAccepted } from '../../payment-provider.port';
import { PaymentProviders } from '../../payment-providers';
import { PaymentFlow } from '../payment-flow';
import { InitiatePaymentCommand } from './initiate-payment.command';
import { InitiatePaymentHandler } from './initiate-payment.handler';

const ORDER_ID = 'ord_0123456789abcdef0123456789abcdef';
const metadata: EventMetadata = { correlationId: 'req-1', actor: { type: 'merchant', id: 'm-1' } };

/**
 * The USSD push on the in-memory event store, with a provider that answers as told: what is pushed,
 * what is recorded, and what is refused before or by the provider (the payment's rules: payment.decider.spec.ts).
 */
describe('InitiatePaymentHandler', () => {
  let store: InMemoryEventStore;
  let push: jest.Mock<Promise<PushAccepted>>;
  let handler: InitiatePaymentHandler;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    push = jest.fn(async () => ({ providerReference: 'ref-1', otpRequired: false }));
    const provider = {
      name: 'stub',
      methods: [
        { id: 'telebirr', name: 'telebirr', otpRequired: false },
        { id: 'mpesa', name: 'M-Pesa', otpRequired: true },
      ],
      initiatePush: push,
    } as unknown as PaymentProvider;
    handler = new InitiatePaymentHandler(new PaymentFlow(new CommandRunner(store)), new PaymentProviders(provider, undefined, { modeOf: async () => 'test' }), systemClock);
    const createdAt = new Date();
    await store.append(
      streams.order(ORDER_ID),
      [
        {
          type: 'OrderCreated',
          data: {
            orderId: ORDER_ID,
            merchantId: 'm-1',
            amount: santim(15_050),
            currency: 'ETB',
            description: 'Two coffees',
            customer: { id: 'c-1', name: 'Abebe Kebede', phone: '+251911234567' },
            items: [{ itemName: 'Coffee', quantity: 2, unitPrice: santim(7_525) }],
            expiresAt: new Date(createdAt.getTime() + 30 * 60_000).toISOString(),
            createdAt: createdAt.toISOString(),
          },
        },
      ],
      'no_stream',
    );
  });

  const types = async () => (await store.readStream(streams.order(ORDER_ID))).map((e) => e.type);

  it("pushes with the provider's first method and records the attempt under the key's id; the same request again pushes nothing", async () => {
    const attemptId = attemptIdFor(ORDER_ID, 'key-1');
    const summary = await handler.execute(new InitiatePaymentCommand(ORDER_ID, metadata, 'key-1'));
    expect(push).toHaveBeenCalledWith(
      expect.objectContaining({ orderId: ORDER_ID, attemptId, phone: '+251911234567', amount: santim(15_050), method: 'telebirr', customer: { name: 'Abebe Kebede' } }),
    );
    expect(summary.lastPaymentAttempt).toMatchObject({ attemptId, provider: 'stub', providerReference: 'ref-1', method: 'telebirr', otpRequired: false });
    expect(await handler.execute(new InitiatePaymentCommand(ORDER_ID, metadata, 'key-1'))).toEqual(summary);
    expect(push).toHaveBeenCalledTimes(1);
    expect(await types()).toEqual(['OrderCreated', 'OrderPaymentInitiated']);
  });

  it('pushes with the method the customer chose', async () => {
    const summary = await handler.execute(new InitiatePaymentCommand(ORDER_ID, metadata, undefined, 'mpesa'));
    expect(push).toHaveBeenCalledWith(expect.objectContaining({ method: 'mpesa' }));
    expect(summary.lastPaymentAttempt?.method).toBe('mpesa');
  });

  it('refuses a method the provider does not offer, and a payable that does not exist, without asking the provider', async () => {
    await expect(handler.execute(new InitiatePaymentCommand(ORDER_ID, metadata, undefined, 'cash'))).rejects.toMatchObject({ code: 'PAYMENT_METHOD_UNKNOWN', kind: 'invalid' });
    await expect(handler.execute(new InitiatePaymentCommand('ord_ffffffffffffffffffffffffffffffff', metadata))).rejects.toThrow(PayableNotFound);
    expect(push).not.toHaveBeenCalled();
    expect(await types()).toEqual(['OrderCreated']);
  });

  it('answers a push the provider rejects as PAYMENT_REQUEST_REFUSED, recording nothing', async () => {
    push.mockRejectedValueOnce(new ProviderRejected('UNSUPPORTED_NUMBER', 'this wallet does not take the number'));
    await expect(handler.execute(new InitiatePaymentCommand(ORDER_ID, metadata))).rejects.toMatchObject({ code: 'PAYMENT_REQUEST_REFUSED', message: 'this wallet does not take the number' });
    expect(await types()).toEqual(['OrderCreated']);
  });
});
