import {
  accountDecider,
  accountIdFor,
  AllocationSumMismatch,
  commissionDecider,
  type EscrowCreated,
  escrowDecider,
  escrowIdFor,
  EscrowNotFound,
  EscrowNotFunded,
  EscrowOrderConflict,
  InvalidInput,
  merchantDecider,
  merchantPrincipal,
  platformLinkDecider,
  platformLinkKey,
  santim,
  streams,
  UnknownAllocationMerchant,
} from '@app/domain';
import { CallbackUrlRefused } from '@app/callbacks';
import type { AppConfig } from '@app/config';
import { type EventMetadata, START } from '@app/event-store';
import { Clocks, CommandRunner, systemClock } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { LiveModeNotConfigured, type PaymentProvider, PaymentProviders, type PayoutBooksDeps } from '@app/payments';
import { FixedClock } from '../../../infrastructure/src/testing/fixed-clock';
import { InMemoryEventStore } from '../../../event-store/src/testing/in-memory-event-store';
import { CancelEscrowCommand, ChangeEscrowCommand, RefundAllocationCommand, ReleaseAllocationCommand } from '@app/contract';
import { ChangeEscrowHandler } from './change-escrow/change-escrow.handler';
import { CancelEscrowHandler } from './cancel-escrow/cancel-escrow.handler';
import { CreateEscrowCommand } from './create-escrow/create-escrow.command';
import type { CreateEscrowRequest } from './create-escrow/create-escrow.request';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { RefundAllocationHandler } from './refund-allocation/refund-allocation.handler';
import { ReleaseAllocationHandler } from './release-allocation/release-allocation.handler';

/** Every party here is a test tenant's, whose money moves on every deployment (PaymentProviders.assertTenantCanMove). */
const testProviders = new PaymentProviders({} as PaymentProvider, undefined, { modeOf: async () => 'test' });
const marketplace = { merchantId: 'mkt-1', idSalt: 'salt-1', mode: 'test' as const };
/** The principal of a merchant's key, as the API's guard resolves it. */
const as = (merchant: { merchantId: string }) => merchantPrincipal(merchant.merchantId);
const metadata: EventMetadata = { correlationId: 'req-1', actor: { type: 'merchant', id: 'mkt-1' } };

/** A request as the controller hands it on, validated: two merchants share 1,000.50 ETB, the first paying the marketplace 10 ETB. */
function escrowRequest(overrides: Partial<CreateEscrowRequest> = {}): CreateEscrowRequest {
  return {
    orderId: 'ORDER-1',
    amount: 1000.5,
    currency: 'ETB',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '0911234567',
    description: 'Marketplace order',
    items: [
      { productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 2, unit_price: 300.25 },
      { productId: 'sku-2', item_name: 'Delivery', quantity: 1, unit_price: 400 },
    ],
    allocations: [
      { merchantId: 'seller-1', amount: 600.5, fee: 10 },
      { merchantId: 'courier-1', amount: 400 },
    ],
    ...overrides,
  } as CreateEscrowRequest;
}

/**
 * The escrow command handlers on the in-memory event store: what each builds from its request and
 * where it lands, in milliseconds and without a database. The rules themselves are the decider's
 * (libs/domain/src/escrow/*.spec.ts); the runner's reads, appends and retries are its own spec's.
 */
describe('escrow command handlers', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;

  /**
   * The payees of escrowRequest's allocations, registered as merchants and linked to both marketplaces:
   * an allocation names someone its creator may credit (libs/domain/src/authority/authority.ts).
   */
  const registerPayees = async () => {
    const at = new Date().toISOString();
    for (const merchantId of ['seller-1', 'courier-1']) {
      await runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name: merchantId, at, mode: 'test' } }, metadata);
      for (const platformId of ['mkt-1', 'mkt-2']) {
        await runner.run(streams.platformLink(platformLinkKey(merchantId, platformId)), platformLinkDecider, { type: 'LinkPlatform', data: { merchantId, platformId, decidedBy: 'merchant', at } }, metadata);
      }
    }
  };

  beforeEach(async () => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
    await registerPayees();
  });

  const create = (request = escrowRequest(), merchant = marketplace) =>
    new CreateEscrowHandler(runner, { callbackAllowPrivateUrls: false } as AppConfig, new Clocks(store, systemClock), store).execute(new CreateEscrowCommand(merchant, request, metadata));
  const escrowEvents = async () => (await store.readAll(START, 100)).filter((e) => e.streamId.startsWith('escrow-'));
  const events = async (escrowId: string) => store.readStream(streams.escrow(escrowId));
  const types = async (escrowId: string) => (await events(escrowId)).map((e) => e.type);

  /** An escrow created by the request and paid in full, as the payment flow records a payment. */
  async function funded(): Promise<string> {
    const { escrow } = await create();
    const { escrowId, amount } = escrow.terms;
    await runner.run(streams.escrow(escrowId), escrowDecider, { type: 'RecordPayment', data: { externalReferenceId: 'pay-1', paymentType: 'telebirr', amount, at: new Date().toISOString() } }, metadata);
    return escrowId;
  }

  describe('CreateEscrowHandler', () => {
    it('refuses a callbackURL on a private address when it is set, writing nothing', async () => {
      await expect(create(escrowRequest({ callbackURL: 'http://192.168.1.20/callbacks' }))).rejects.toThrow(CallbackUrlRefused);
      expect(await escrowEvents()).toEqual([]);
    });

    it("records the escrow on the stream its merchant's salt and orderId name, in santim, with the phone in E.164", async () => {
      const outcome = await create();
      const escrowId = escrowIdFor(marketplace.idSalt, 'ORDER-1');
      expect(outcome.created).toBe(true);
      const [created] = await events(escrowId);
      expect(created.type).toBe('EscrowCreated');
      expect(created.metadata).toEqual(metadata);
      expect(created.data).toMatchObject({
        escrowId,
        merchantId: 'mkt-1',
        orderId: 'ORDER-1',
        amount: santim(100_050),
        customer: { name: 'Abebe Kebede', phone: '+251911234567' },
        items: [{ itemName: 'Coffee 1kg', quantity: 2, unitPrice: santim(30_025) }, { itemName: 'Delivery', unitPrice: santim(40_000) }],
        allocations: [
          { merchantId: 'seller-1', amount: santim(60_050), fee: santim(1_000), account: false },
          { merchantId: 'courier-1', amount: santim(40_000), account: false },
        ],
      });
      expect(outcome.escrow.terms).toEqual(created.data);
    });

    it('answers the same request again with the escrow it made, appending nothing; other terms under the same orderId are refused', async () => {
      const first = await create();
      const again = await create();
      expect(again).toEqual({ escrow: first.escrow, created: false });
      await expect(create(escrowRequest({ description: 'Another order' }))).rejects.toThrow(EscrowOrderConflict);
      expect(await types(first.escrow.terms.escrowId)).toEqual(['EscrowCreated']);
    });

    it("gives another merchant's escrow with the same orderId a stream of its own", async () => {
      const mine = await create();
      const theirs = await create(escrowRequest(), { merchantId: 'mkt-2', idSalt: 'salt-2', mode: 'test' as const });
      expect(theirs.created).toBe(true);
      expect(theirs.escrow.terms.escrowId).not.toBe(mine.escrow.terms.escrowId);
    });

    it('refuses bad input, writing nothing', async () => {
      await expect(create(escrowRequest({ amount: 1000.505 }))).rejects.toThrow(InvalidInput);
      await expect(create(escrowRequest({ amount: 999 }))).rejects.toThrow(AllocationSumMismatch);
      expect(await escrowEvents()).toEqual([]);
    });

    it('stores an account named by its reference as its accountId, recorded as an account, and the creator itself without a lookup', async () => {
      const accountId = accountIdFor(marketplace.idSalt, { reference: 'shop-7' });
      const at = new Date().toISOString();
      await runner.run(streams.account(accountId), accountDecider, { type: 'CreateAccount', data: { accountId, merchantId: 'mkt-1', name: 'Shop 7', type: 'individual', reference: 'shop-7', requestFingerprint: 'f', at } }, metadata);
      const allocations = [
        { merchantId: 'shop-7', amount: 600.5 },
        { merchantId: 'mkt-1', amount: 400 },
      ];
      const readStreams = jest.spyOn(store, 'readStreams');
      const { escrow } = await create(escrowRequest({ allocations }));
      expect(escrow.allocations.map((a) => a.merchantId)).toEqual([accountId, 'mkt-1']);
      const [created] = await events(escrow.terms.escrowId);
      expect((created.data as EscrowCreated['data']).allocations.map((a) => [a.merchantId, a.account])).toEqual([
        [accountId, true],
        ['mkt-1', false],
      ]);
      // One read: whom 'shop-7' names, and the rules of either payee it may name (the platform's own allocation pays none).
      expect(readStreams.mock.calls).toEqual([
        [
          [
            streams.account('shop-7'),
            streams.merchant('shop-7'),
            streams.platformLink(platformLinkKey('shop-7', 'mkt-1')),
            streams.account(accountId),
            streams.commission('mkt-1'),
            streams.commission('shop-7'),
            streams.commission(accountId),
          ],
          new Map(),
        ],
      ]);
    });

    it("applies the platform's commission rule and a payee's own override, read with the payees in one read", async () => {
      const at = new Date().toISOString();
      const rule = { basisPoints: 1_000 };
      await runner.run(streams.commission('mkt-1'), commissionDecider, { type: 'SetCommission', data: { platformId: 'mkt-1', rule, at } }, metadata);
      const override = { basisPoints: 500 };
      await runner.run(streams.commission('courier-1'), commissionDecider, { type: 'SetCommission', data: { platformId: 'mkt-1', accountId: 'courier-1', rule: override, at } }, metadata);
      const readStream = jest.spyOn(store, 'readStream');
      const readStreams = jest.spyOn(store, 'readStreams');
      const allocations = [
        { merchantId: 'seller-1', amount: 600.5 },
        { merchantId: 'courier-1', amount: 400 },
      ];
      const { escrow } = await create(escrowRequest({ allocations }));
      const [created] = await events(escrow.terms.escrowId);
      expect((created.data as EscrowCreated['data']).allocations.map((a) => [a.merchantId, a.commission])).toEqual([
        ['seller-1', { source: 'platform', version: 1, rule }],
        ['courier-1', { source: 'account', version: 1, rule: override }],
      ]);
      const rules = ['mkt-1', 'seller-1', 'courier-1'].map((key) => streams.commission(key));
      expect(readStreams.mock.calls).toEqual([[expect.arrayContaining([streams.account('seller-1'), streams.account('courier-1'), ...rules]), new Map()]]);
      expect(readStream.mock.calls.filter(([streamId]) => rules.includes(streamId))).toEqual([]);
    });

    it("refuses a registered merchant that gave the creator no link, or revoked it, and an id nobody has", async () => {
      const at = new Date().toISOString();
      await runner.run(streams.merchant('shop-8'), merchantDecider, { type: 'RegisterMerchant', data: { merchantId: 'shop-8', name: 'Shop 8', at, mode: 'test' } }, metadata);
      const only = (merchantId: string, orderId: string) => create(escrowRequest({ orderId, allocations: [{ merchantId, amount: 1000.5 }] }));
      await expect(only('shop-8', 'ORDER-A')).rejects.toThrow(new UnknownAllocationMerchant('shop-8'));
      await runner.run(streams.platformLink(platformLinkKey('shop-8', 'mkt-1')), platformLinkDecider, { type: 'LinkPlatform', data: { merchantId: 'shop-8', platformId: 'mkt-1', decidedBy: 'merchant', at } }, metadata);
      expect((await only('shop-8', 'ORDER-B')).escrow.allocations.map((a) => a.merchantId)).toEqual(['shop-8']);
      await runner.run(streams.platformLink(platformLinkKey('shop-8', 'mkt-1')), platformLinkDecider, { type: 'RevokePlatformLink', data: { merchantId: 'shop-8', platformId: 'mkt-1', decidedBy: 'merchant', at } }, metadata);
      await expect(only('shop-8', 'ORDER-C')).rejects.toThrow(new UnknownAllocationMerchant('shop-8'));
      const theirs = await create(escrowRequest({ orderId: 'ORDER-D', allocations: [{ merchantId: 'shop-7', amount: 1000.5 }] }), { merchantId: 'mkt-2', idSalt: 'salt-2', mode: 'test' as const }).catch((error: unknown) => error);
      expect(theirs).toEqual(new UnknownAllocationMerchant('shop-7'));
    });

    it('keeps the payees and rules it read from create to create, deciding on them without a read, and refuses an account another process rejected or closed since', async () => {
      // One process's handler, its payees and rules kept; another process writes the same streams meanwhile.
      const handler = new CreateEscrowHandler(runner, { callbackAllowPrivateUrls: false } as AppConfig, new Clocks(store, systemClock), store);
      const createHere = (orderId: string, reference: string) =>
        handler.execute(new CreateEscrowCommand(marketplace, escrowRequest({ orderId, allocations: [{ merchantId: reference, amount: 1000.5 }] }), metadata));
      const other = new CommandRunner(store);
      const at = new Date().toISOString();
      const account = (reference: string) => accountIdFor(marketplace.idSalt, { reference });
      for (const reference of ['shop-r', 'shop-c']) {
        const accountId = account(reference);
        await other.run(streams.account(accountId), accountDecider, { type: 'CreateAccount', data: { accountId, merchantId: 'mkt-1', name: reference, type: 'individual', reference, requestFingerprint: 'f', at } }, metadata);
      }
      expect((await createHere('ORDER-R1', 'shop-r')).escrow.allocations.map((a) => a.merchantId)).toEqual([account('shop-r')]);
      expect((await createHere('ORDER-C1', 'shop-c')).escrow.allocations.map((a) => a.merchantId)).toEqual([account('shop-c')]);

      const readStreams = jest.spyOn(store, 'readStreams');
      expect((await createHere('ORDER-R2', 'shop-r')).created).toBe(true);
      // Decided on the kept payee and rules, no read: the append carries them as conditions, and nothing had moved.
      expect(readStreams).not.toHaveBeenCalled();
      const [, created] = await escrowEvents().then((all) => all.filter((event) => event.type === 'EscrowCreated').slice(-2));
      expect(created.data).toMatchObject({ orderId: 'ORDER-R2' });

      await store.append(streams.account(account('shop-r')), [{ type: 'AccountRejected', data: { accountId: account('shop-r'), merchantId: 'mkt-1', decidedBy: { type: 'admin', id: 'staff-1' }, reason: 'identity not confirmed', decidedAt: at } }], 0n);
      await store.append(streams.account(account('shop-c')), [{ type: 'AccountClosed', data: { accountId: account('shop-c'), merchantId: 'mkt-1', closedBy: { type: 'merchant', id: 'mkt-1' }, reason: 'left', closedAt: at } }], 0n);
      const before = (await escrowEvents()).length;
      await expect(createHere('ORDER-R3', 'shop-r')).rejects.toThrow(new UnknownAllocationMerchant('shop-r'));
      await expect(createHere('ORDER-C3', 'shop-c')).rejects.toThrow(new UnknownAllocationMerchant('shop-c'));
      expect((await escrowEvents()).length).toBe(before);
    });

    it("refuses an allocation to an id that names none of the creator's payees, nor another platform's account, writing nothing", async () => {
      const theirs = accountIdFor('salt-2', { reference: 'shop-9' });
      await runner.run(streams.account(theirs), accountDecider, { type: 'CreateAccount', data: { accountId: theirs, merchantId: 'mkt-2', name: 'Shop 9', type: 'individual', reference: 'shop-9', requestFingerprint: 'f', at: new Date().toISOString() } }, metadata);
      for (const stranger of ['seller-404', theirs, 'shop-9']) {
        const allocations = [{ merchantId: 'seller-1', amount: 600.5 }, { merchantId: stranger, amount: 400 }];
        await expect(create(escrowRequest({ orderId: `ORDER-${stranger}`, allocations }))).rejects.toThrow(new UnknownAllocationMerchant(stranger));
      }
      expect(await escrowEvents()).toEqual([]);
    });
  });

  describe('on an escrow its merchant created', () => {
    it('ReleaseAllocationHandler releases an allocation, its fee named, and answers with the escrow and the time of the release', async () => {
      const escrowId = await funded();
      const change = await new ReleaseAllocationHandler(runner, new Clocks(store, systemClock)).execute(new ReleaseAllocationCommand(as(marketplace), marketplace, escrowId, [{ merchantId: 'seller-1' }], metadata));
      const released = (await events(escrowId)).at(-1)!;
      expect(released).toMatchObject({ type: 'AllocationReleased', data: { merchantId: 'seller-1', amount: santim(60_050), fee: santim(1_000) } });
      expect(change.escrow.status).toBe('PARTIALLY_RELEASED');
      expect(change.at).toEqual(released.recordedAt);
    });

    it('ReleaseAllocationHandler is refused before the money arrived, and by another merchant', async () => {
      const { escrow } = await create();
      const escrowId = escrow.terms.escrowId;
      const release = (merchant: typeof marketplace) => new ReleaseAllocationHandler(runner, new Clocks(store, systemClock)).execute(new ReleaseAllocationCommand(as(merchant), merchant, escrowId, [{ merchantId: 'seller-1' }], metadata));
      await expect(release(marketplace)).rejects.toThrow(EscrowNotFunded);
      await expect(release({ merchantId: 'mkt-2', idSalt: 'salt-2', mode: 'test' as const })).rejects.toThrow(EscrowNotFound);
      expect(await types(escrowId)).toEqual(['EscrowCreated']);
    });

    it("RefundAllocationHandler asks the provider to refund part of an allocation, with the merchant's words", async () => {
      const escrowId = await funded();
      const refunds = [{ merchantId: 'courier-1', amount: santim(10_000) }];
      const change = await new RefundAllocationHandler(runner, new Clocks(store, systemClock), testProviders).execute(new RefundAllocationCommand(as(marketplace), marketplace, escrowId, refunds, 'late delivery', metadata));
      expect((await events(escrowId)).at(-1)).toMatchObject({
        type: 'EscrowRefundRequested',
        data: { amount: santim(10_000), reason: 'REQUESTED', note: 'late delivery', merchantIds: ['courier-1'], allocations: refunds, paymentReferenceId: 'pay-1' },
      });
      expect(change.escrow.allocations.find((a) => a.merchantId === 'courier-1')?.refunded).toBe(santim(10_000));
    });

    it('RefundAllocationHandler refuses a live merchant\'s refund on a deployment with no live provider, writing nothing', async () => {
      const escrowId = await funded();
      const before = await types(escrowId);
      const sandboxOnly = new PaymentProviders({} as PaymentProvider, undefined, { modeOf: async () => 'live' });
      const refunds = [{ merchantId: 'courier-1', amount: santim(10_000) }];
      const refused = new RefundAllocationHandler(runner, new Clocks(store, systemClock), sandboxOnly).execute(new RefundAllocationCommand(as(marketplace), marketplace, escrowId, refunds, 'late delivery', metadata));
      await expect(refused).rejects.toBeInstanceOf(LiveModeNotConfigured);
      expect(await types(escrowId)).toEqual(before);
    });

    it('CancelEscrowHandler cancels a paid escrow and asks for the refund of all it holds', async () => {
      const escrowId = await funded();
      const change = await new CancelEscrowHandler(runner, new Clocks(store, systemClock), testProviders).execute(new CancelEscrowCommand(as(marketplace), marketplace, escrowId, 'out of stock', metadata));
      expect((await events(escrowId)).slice(2)).toMatchObject([
        { type: 'EscrowCancelled', data: { reason: 'out of stock' } },
        { type: 'EscrowRefundRequested', data: { amount: santim(100_050), reason: 'CANCELLED', merchantIds: ['seller-1', 'courier-1'] } },
      ]);
      expect(change.escrow.status).toBe('REFUND_PENDING');
    });

    describe('on a deployment with no live provider, for a live merchant', () => {
      const sandboxOnly = new PaymentProviders({} as PaymentProvider, undefined, { modeOf: async () => 'live' });
      const cancel = (escrowId: string) => new CancelEscrowHandler(runner, new Clocks(store, systemClock), sandboxOnly).execute(new CancelEscrowCommand(as(marketplace), marketplace, escrowId, 'out of stock', metadata));
      const change = (escrowId: string, build: ChangeEscrowCommand['build']) =>
        new ChangeEscrowHandler(runner, new PartyRelations(store), new Clocks(store, systemClock), {} as PayoutBooksDeps, sandboxOnly).execute(new ChangeEscrowCommand(as(marketplace), marketplace, escrowId, build, metadata));
      const disputed = async () => {
        const escrowId = await funded();
        await change(escrowId, (at) => ({ type: 'OpenDispute', data: { escrowId, merchantId: marketplace.merchantId, allocation: 'courier-1', reason: 'not delivered', at } }));
        return escrowId;
      };
      const resolve = (escrowId: string, release: number, refund: number) =>
        change(escrowId, (at) => ({ type: 'ResolveDispute', data: { escrowId, merchantId: marketplace.merchantId, resolutions: [{ merchantId: 'courier-1', release: santim(release), refund: santim(refund) }], at } }));

      it("CancelEscrowHandler refuses a paid escrow's cancel, which refunds the customer, writing nothing", async () => {
        const escrowId = await funded();
        const before = await types(escrowId);
        await expect(cancel(escrowId)).rejects.toBeInstanceOf(LiveModeNotConfigured);
        expect(await types(escrowId)).toEqual(before);
      });

      it("CancelEscrowHandler still cancels an unpaid escrow: nothing goes back to anyone", async () => {
        const { escrow } = await create();
        const outcome = await cancel(escrow.terms.escrowId);
        expect(outcome.escrow.status).toBe('CANCELLED');
        expect(await types(escrow.terms.escrowId)).toEqual(['EscrowCreated', 'EscrowCancelled']);
      });

      it('ChangeEscrowHandler refuses a dispute resolved with a refund, writing nothing', async () => {
        const escrowId = await disputed();
        const before = await types(escrowId);
        await expect(resolve(escrowId, 10_000, 30_000)).rejects.toBeInstanceOf(LiveModeNotConfigured);
        expect(await types(escrowId)).toEqual(before);
      });

      it("ChangeEscrowHandler resolves a dispute in the seller's favour: it moves no provider money", async () => {
        const escrowId = await disputed();
        await resolve(escrowId, 40_000, 0);
        expect((await types(escrowId)).slice(-2)).toEqual(['DisputeResolved', 'AllocationReleased']);
      });
    });

    it("ChangeEscrowHandler builds its domain command at the instant it runs, by the clock's time", async () => {
      const escrowId = await funded();
      const clock = new FixedClock(new Date(Date.now() + 60_000));
      const build = jest.fn((at: string) => ({ type: 'OpenDispute' as const, data: { escrowId, merchantId: marketplace.merchantId, allocation: 'seller-1', reason: 'not delivered', at } }));
      // A dispute is decided on the escrow alone: no payee's books are asked.
      await new ChangeEscrowHandler(runner, new PartyRelations(store), new Clocks(store, clock), {} as PayoutBooksDeps, testProviders).execute(new ChangeEscrowCommand(as(marketplace), marketplace, escrowId, build, metadata));
      const [at] = build.mock.calls[0];
      expect(at).toBe(clock.now().toISOString());
      expect((await events(escrowId)).at(-1)).toMatchObject({ type: 'DisputeOpened', data: { merchantIds: ['seller-1'], reason: 'not delivered', openedAt: at } });
    });
  });
});
