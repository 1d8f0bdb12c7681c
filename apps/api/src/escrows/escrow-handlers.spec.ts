import {
  AllocationSumMismatch,
  escrowDecider,
  escrowIdFor,
  EscrowNotFound,
  EscrowNotFunded,
  EscrowOrderConflict,
  InvalidInput,
  santim,
  streams,
} from '@app/domain';
import { type EventMetadata, START } from '@app/event-store';
import { loadConfig } from '@app/config';
import { CommandRunner } from '@app/infrastructure';
import { AccountDirectory, AllocationPayees } from '@app/onboarding';
import { InMemoryEventStore } from '../../../../libs/event-store/src/testing/in-memory-event-store';
import { CancelEscrowCommand } from './cancel-escrow/cancel-escrow.command';
import { CancelEscrowHandler } from './cancel-escrow/cancel-escrow.handler';
import { ChangeEscrowCommand, ChangeEscrowHandler } from './change-escrow';
import { CreateEscrowCommand } from './create-escrow/create-escrow.command';
import type { CreateEscrowDto } from './create-escrow/create-escrow.dto';
import { CreateEscrowHandler } from './create-escrow/create-escrow.handler';
import { RefundAllocationCommand } from './refund-allocation/refund-allocation.command';
import { RefundAllocationHandler } from './refund-allocation/refund-allocation.handler';
import { ReleaseAllocationCommand } from './release-allocation/release-allocation.command';
import { ReleaseAllocationHandler } from './release-allocation/release-allocation.handler';

const marketplace = { merchantId: 'mkt-1', idSalt: 'salt-1' };
const metadata: EventMetadata = { correlationId: 'req-1', actor: { type: 'merchant', id: 'mkt-1' } };

/** A request as the controller hands it on, validated: two merchants share 1,000.50 ETB, the first paying the marketplace 10 ETB. */
function escrowRequest(overrides: Partial<CreateEscrowDto> = {}): CreateEscrowDto {
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
  } as CreateEscrowDto;
}

/**
 * The escrow command handlers on the in-memory event store: what each builds from its request and
 * where it lands, in milliseconds and without a database. The rules themselves are the decider's
 * (libs/domain/src/escrow/*.spec.ts); the runner's reads, appends and retries are its own spec's.
 */
describe('escrow command handlers', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;

  beforeEach(() => {
    store = new InMemoryEventStore();
    runner = new CommandRunner(store);
  });

  const create = (request = escrowRequest(), merchant = marketplace) =>
    new CreateEscrowHandler(runner, new AllocationPayees(new AccountDirectory(runner, loadConfig({})), runner)).execute(new CreateEscrowCommand(merchant, request, metadata));
  const events = async (escrowId: string) => store.readStream(streams.escrow(escrowId));
  const types = async (escrowId: string) => (await events(escrowId)).map((e) => e.type);
  const everything = async () => store.readAll(START, 100);

  /** An escrow created by the request and paid in full, as the payment flow records a payment. */
  async function funded(): Promise<string> {
    const { escrow } = await create();
    const { escrowId, amount } = escrow.terms;
    await runner.run(streams.escrow(escrowId), escrowDecider, { type: 'RecordPayment', data: { externalReferenceId: 'pay-1', paymentType: 'telebirr', amount, at: new Date().toISOString() } }, metadata);
    return escrowId;
  }

  describe('CreateEscrowHandler', () => {
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
          { merchantId: 'seller-1', amount: santim(60_050), fee: santim(1_000) },
          { merchantId: 'courier-1', amount: santim(40_000) },
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
      const theirs = await create(escrowRequest(), { merchantId: 'mkt-2', idSalt: 'salt-2' });
      expect(theirs.created).toBe(true);
      expect(theirs.escrow.terms.escrowId).not.toBe(mine.escrow.terms.escrowId);
    });

    it('refuses bad input, writing nothing', async () => {
      await expect(create(escrowRequest({ amount: 1000.505 }))).rejects.toThrow(InvalidInput);
      await expect(create(escrowRequest({ amount: 999 }))).rejects.toThrow(AllocationSumMismatch);
      expect(await everything()).toEqual([]);
    });
  });

  describe('on an escrow its merchant created', () => {
    it('ReleaseAllocationHandler releases an allocation, its fee named, and answers with the escrow and the time of the release', async () => {
      const escrowId = await funded();
      const change = await new ReleaseAllocationHandler(runner).execute(new ReleaseAllocationCommand(marketplace, escrowId, [{ merchantId: 'seller-1' }], metadata));
      const released = (await events(escrowId)).at(-1)!;
      expect(released).toMatchObject({ type: 'AllocationReleased', data: { merchantId: 'seller-1', amount: santim(60_050), fee: santim(1_000) } });
      expect(change.escrow.status).toBe('PARTIALLY_RELEASED');
      expect(change.at).toEqual(released.recordedAt);
    });

    it('ReleaseAllocationHandler is refused before the money arrived, and by another merchant', async () => {
      const { escrow } = await create();
      const escrowId = escrow.terms.escrowId;
      const release = (merchant: typeof marketplace) => new ReleaseAllocationHandler(runner).execute(new ReleaseAllocationCommand(merchant, escrowId, [{ merchantId: 'seller-1' }], metadata));
      await expect(release(marketplace)).rejects.toThrow(EscrowNotFunded);
      await expect(release({ merchantId: 'mkt-2', idSalt: 'salt-2' })).rejects.toThrow(EscrowNotFound);
      expect(await types(escrowId)).toEqual(['EscrowCreated']);
    });

    it("RefundAllocationHandler asks the provider to refund part of an allocation, with the merchant's words", async () => {
      const escrowId = await funded();
      const refunds = [{ merchantId: 'courier-1', amount: santim(10_000) }];
      const change = await new RefundAllocationHandler(runner).execute(new RefundAllocationCommand(marketplace, escrowId, refunds, 'late delivery', metadata));
      expect((await events(escrowId)).at(-1)).toMatchObject({
        type: 'EscrowRefundRequested',
        data: { amount: santim(10_000), reason: 'REQUESTED', note: 'late delivery', merchantIds: ['courier-1'], allocations: refunds, paymentReferenceId: 'pay-1' },
      });
      expect(change.escrow.allocations.find((a) => a.merchantId === 'courier-1')?.refunded).toBe(santim(10_000));
    });

    it('CancelEscrowHandler cancels a paid escrow and asks for the refund of all it holds', async () => {
      const escrowId = await funded();
      const change = await new CancelEscrowHandler(runner).execute(new CancelEscrowCommand(marketplace, escrowId, 'out of stock', metadata));
      expect((await events(escrowId)).slice(2)).toMatchObject([
        { type: 'EscrowCancelled', data: { reason: 'out of stock' } },
        { type: 'EscrowRefundRequested', data: { amount: santim(100_050), reason: 'CANCELLED', merchantIds: ['seller-1', 'courier-1'] } },
      ]);
      expect(change.escrow.status).toBe('REFUND_PENDING');
    });

    it('ChangeEscrowHandler builds its domain command at the instant it runs', async () => {
      const escrowId = await funded();
      const before = Date.now();
      const build = jest.fn((at: string) => ({ type: 'OpenDispute' as const, data: { escrowId, merchantId: marketplace.merchantId, allocation: 'seller-1', reason: 'not delivered', at } }));
      await new ChangeEscrowHandler(runner).execute(new ChangeEscrowCommand(marketplace, escrowId, build, metadata));
      const [at] = build.mock.calls[0];
      expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
      expect((await events(escrowId)).at(-1)).toMatchObject({ type: 'DisputeOpened', data: { merchantIds: ['seller-1'], reason: 'not delivered', openedAt: at } });
    });
  });
});
