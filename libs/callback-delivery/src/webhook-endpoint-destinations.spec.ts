import { type CallbackMessage, deliveryIdFor } from '@app/callbacks';
import type { SqlExecutor } from '@app/database';
import type { LogPosition, RecordedEvent } from '@app/event-store';
import type { WebhookEndpointView } from '@app/read-models';
import { WebhookEndpointDestinations } from './webhook-endpoint-destinations';

const CREATED = new Date('2030-01-01T10:00:00.000Z');
const BEFORE = new Date('2030-01-01T09:00:00.000Z');
const AFTER = new Date('2030-01-01T11:00:00.000Z');

const endpoint = (endpointId: string, events: string[], overrides: Partial<WebhookEndpointView> = {}) => ({
  document: { endpointId, merchantId: 'mer_1', url: `https://hooks.example/${endpointId}`, events, description: null, disabled: false, createdAt: '', updatedAt: '', ...overrides },
  created_at: CREATED,
  updated_at: CREATED,
});

const ENDPOINTS = [
  endpoint('we_payouts', ['PAYOUT_PAID']),
  endpoint('we_all', ['*']),
  endpoint('we_disabled', ['*'], { disabled: true }),
  endpoint('we_other', ['*'], { merchantId: 'mer_2' }),
];

/** The view's rows for the merchants asked about (deleted ones are never returned). */
class View {
  asked: string[][] = [];
  async query(_sql: string, [merchantIds]: [string[]]) {
    this.asked.push(merchantIds);
    return ENDPOINTS.filter((row) => merchantIds.includes(row.document.merchantId));
  }
}

const position = (n: number): LogPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
const event = (id: string, recordedAt: Date, n = 1): RecordedEvent => ({ id, streamId: 's', revision: 0n, type: 'X', data: {}, metadata: {}, recordedAt, position: position(n) });
const message = (status: string, extra: Partial<CallbackMessage> = {}): CallbackMessage => ({
  merchantId: 'mer_1',
  orderId: 'ord_1',
  status,
  payload: { status, deliveryId: 'dlv_own' },
  ...extra,
});

describe('WebhookEndpointDestinations', () => {
  const reached: LogPosition[] = [];
  let view: View;
  let destinations: WebhookEndpointDestinations;

  beforeEach(() => {
    view = new View();
    reached.length = 0;
    destinations = new WebhookEndpointDestinations(view as unknown as SqlExecutor, { reach: async (p: LogPosition) => void reached.push(p) });
  });

  const to = (planned: { endpointId?: string }[]) => planned.map((p) => p.endpointId);

  it('addresses each callback to the live endpoints of its merchant subscribed to its status, made before it', async () => {
    const [paid, payoutPaid, early] = await destinations.address([
      { event: event('e1', AFTER, 1), message: message('PAID') },
      { event: event('e2', AFTER, 2), message: message('PAYOUT_PAID') },
      { event: event('e3', BEFORE, 3), message: message('PAYOUT_PAID') },
    ]);
    expect(to(paid)).toEqual(['we_all']);
    expect(to(payoutPaid)).toEqual(['we_payouts', 'we_all']);
    expect(early).toEqual([]);
    // One read for the batch, once the view includes its last event.
    expect(view.asked).toEqual([['mer_1']]);
    expect(reached).toEqual([position(3)]);
    expect(payoutPaid[0]).toMatchObject({ url: 'https://hooks.example/we_payouts', deliveryId: deliveryIdFor('e2\nwe_payouts') });
    expect(JSON.parse(payoutPaid[0].body).deliveryId).toBe(payoutPaid[0].deliveryId);
  });

  it('sends a test event to its endpoint alone, disabled or not', async () => {
    const [test] = await destinations.address([{ event: event('e1', AFTER), message: message('TEST', { endpointId: 'we_disabled' }) }]);
    expect(to(test)).toEqual(['we_disabled']);
  });

  it('reads nothing for a batch without callbacks', async () => {
    expect(await destinations.address([])).toEqual([]);
    expect(view.asked).toEqual([]);
    expect(reached).toEqual([]);
  });

  it("sends a seller account's payout to the account's endpoints and its platform's, and its share of an escrow to the account's alone", async () => {
    const account = 'acct_1';
    const platformOf = (id: string) => (id === account ? 'mer_1' : undefined);
    const [payout, share] = await destinations.address(
      [
        { event: event('e1', AFTER, 1), message: message('PAYOUT_PAID', { merchantId: account, reachesPlatform: true }) },
        { event: event('e2', AFTER, 2), message: message('PAYOUT_PAID', { merchantId: account }) },
      ],
      platformOf,
    );
    expect(to(payout)).toEqual(['we_payouts', 'we_all']);
    // The platform's endpoint's delivery is the platform's: its log lists it, it may redeliver it.
    expect(payout[0].merchantId).toBe('mer_1');
    expect(share).toEqual([]);
    expect(view.asked).toEqual([[account, 'mer_1']]);
  });

  it("keeps an owner's endpoints, none included, until the log brings an endpoint's event, then reads them again once the view includes it", async () => {
    await destinations.address([{ event: event('e1', AFTER, 1), message: message('PAID') }]);
    await destinations.address([{ event: event('e2', AFTER, 2), message: message('PAID', { merchantId: 'mer_3' }) }]);
    const [paid] = await destinations.address([{ event: event('e3', AFTER, 3), message: message('PAID') }]);
    expect(to(paid)).toEqual(['we_all']);
    expect(view.asked).toEqual([['mer_1'], ['mer_3']]);
    expect(reached).toEqual([position(1), position(2)]);

    // Only an owner read and found without endpoints is known to have none.
    expect([destinations.keptWithoutEndpoints('mer_3'), destinations.keptWithoutEndpoints('mer_1'), destinations.keptWithoutEndpoints('mer_4')]).toEqual([true, false, false]);

    destinations.follow([{ ...event('e4', AFTER, 4), streamId: 'webhook-endpoint-we_new' }]);
    expect(destinations.keptWithoutEndpoints('mer_3')).toBe(false);
    await destinations.address([{ event: event('e5', AFTER, 5), message: message('PAID') }]);
    expect(view.asked).toEqual([['mer_1'], ['mer_3'], ['mer_1']]);
    expect(reached).toEqual([position(1), position(2), position(5)]);
  });
});
