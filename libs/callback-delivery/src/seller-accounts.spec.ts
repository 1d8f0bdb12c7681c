import type { CallbackMessage } from '@app/callbacks';
import type { RecordedEvent } from '@app/event-store';
import type { CommandRunner } from '@app/infrastructure';
import { SellerAccounts } from './seller-accounts';

const message = (merchantId: string) => ({ message: { merchantId, orderId: 'esc_1', status: 'HELD', payload: { status: 'HELD', deliveryId: 'dlv_1' } } as CallbackMessage });
const accountEvent = (accountId: string): RecordedEvent => ({
  id: 'e1',
  streamId: `account-${accountId}`,
  revision: 1n,
  type: 'AccountUpdated',
  data: {},
  metadata: {},
  recordedAt: new Date(),
  position: { commit: 1n, prepare: 1n },
});

/** Account streams as they stand: acct_1 a seller of mer_1 with a callbackURL; anything else no account. */
class Streams {
  readonly asked: string[] = [];
  callbackUrl: string | undefined = 'https://seller.example/cb';
  async read(streamId: string) {
    this.asked.push(streamId);
    return { state: { account: streamId === 'account-acct_1' ? { merchantId: 'mer_1', callbackUrl: this.callbackUrl } : undefined } };
  }
}

describe('SellerAccounts', () => {
  it('reads each recipient once, and an account again only after the log brings an event of its stream', async () => {
    const streams = new Streams();
    const accounts = new SellerAccounts({ read: (streamId: string) => streams.read(streamId) } as unknown as Pick<CommandRunner, 'read'>);

    expect(await accounts.of([message('acct_1'), message('mer_1')])).toEqual(new Map([['acct_1', { platformId: 'mer_1', callbackUrl: 'https://seller.example/cb' }]]));
    accounts.follow([accountEvent('acct_2')]);
    await accounts.of([message('acct_1'), message('mer_1')]);
    expect(streams.asked).toEqual(['account-acct_1', 'account-mer_1']);

    streams.callbackUrl = 'https://seller.example/new';
    accounts.follow([accountEvent('acct_1')]);
    expect((await accounts.of([message('acct_1'), message('mer_1')])).get('acct_1')).toEqual({ platformId: 'mer_1', callbackUrl: 'https://seller.example/new' });
    expect(streams.asked).toEqual(['account-acct_1', 'account-mer_1', 'account-acct_1']);
  });

  it('knows a recipient has no callbackURL only once it has read it, and until its stream moves', async () => {
    const streams = new Streams();
    const accounts = new SellerAccounts({ read: (streamId: string) => streams.read(streamId) } as unknown as Pick<CommandRunner, 'read'>);
    expect(accounts.keptWithoutCallbackUrl('mer_1')).toBe(false);
    await accounts.of([message('acct_1'), message('mer_1')]);
    expect([accounts.keptWithoutCallbackUrl('mer_1'), accounts.keptWithoutCallbackUrl('acct_1')]).toEqual([true, false]);

    streams.callbackUrl = undefined;
    accounts.follow([accountEvent('acct_1')]);
    expect(accounts.keptWithoutCallbackUrl('acct_1')).toBe(false);
    await accounts.of([message('acct_1')]);
    expect(accounts.keptWithoutCallbackUrl('acct_1')).toBe(true);
  });
});
