import type { AuthenticatedMerchant, CredentialStore } from '@app/credentials';
import { MerchantAuthenticator } from './merchant-authenticator';

const SHOP: AuthenticatedMerchant = { merchantId: 'mer_shop', idSalt: 'salt', mode: 'test' };

/** The credential store as the database answers it, counting the lookups. */
function credentials(valid: Record<string, AuthenticatedMerchant>) {
  const lookups: string[] = [];
  const store = { findByApiSecret: async (secret: string) => (lookups.push(secret), valid[secret]) } as unknown as CredentialStore;
  return { store, lookups };
}

describe('MerchantAuthenticator', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-28T12:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('looks a wrong secret up once: sent again within seconds it is refused from memory', async () => {
    const { store, lookups } = credentials({});
    const authenticator = new MerchantAuthenticator(store);
    for (let i = 0; i < 5; i++) expect(await authenticator.authenticate('sk_made_up')).toBeUndefined();
    expect(lookups).toEqual(['sk_made_up']);
  });

  it('asks again once the refusal has expired, so a secret issued by another process works within seconds', async () => {
    const valid: Record<string, AuthenticatedMerchant> = {};
    const { store, lookups } = credentials(valid);
    const authenticator = new MerchantAuthenticator(store);
    expect(await authenticator.authenticate('sk_issued_elsewhere')).toBeUndefined();
    valid['sk_issued_elsewhere'] = SHOP;
    expect(await authenticator.authenticate('sk_issued_elsewhere')).toBeUndefined();
    jest.advanceTimersByTime(10_001);
    expect(await authenticator.authenticate('sk_issued_elsewhere')).toEqual(SHOP);
    expect(lookups).toHaveLength(2);
  });

  it('forgets a refusal of a secret it is told was issued, and the merchant’s previous secret', async () => {
    const valid: Record<string, AuthenticatedMerchant> = { sk_old: SHOP };
    const { store } = credentials(valid);
    const authenticator = new MerchantAuthenticator(store);
    expect(await authenticator.authenticate('sk_old')).toEqual(SHOP);
    expect(await authenticator.authenticate('sk_new')).toBeUndefined();
    delete valid['sk_old'];
    valid['sk_new'] = SHOP;
    authenticator.issued(SHOP.merchantId, 'sk_new');
    expect(await authenticator.authenticate('sk_new')).toEqual(SHOP);
    expect(await authenticator.authenticate('sk_old')).toBeUndefined();
  });

  it('remembers a found secret without a lookup, for a few seconds', async () => {
    const { store, lookups } = credentials({ sk_live: SHOP });
    const authenticator = new MerchantAuthenticator(store);
    expect(authenticator.remembered('sk_live')).toBeUndefined();
    await authenticator.authenticate('sk_live');
    expect(authenticator.remembered('sk_live')).toEqual(SHOP);
    jest.advanceTimersByTime(10_001);
    expect(authenticator.remembered('sk_live')).toBeUndefined();
    expect(lookups).toEqual(['sk_live']);
  });

  it('keeps at most 10,000 refusals: the oldest goes first', async () => {
    const { store, lookups } = credentials({});
    const authenticator = new MerchantAuthenticator(store);
    for (let i = 0; i <= 10_000; i++) await authenticator.authenticate(`sk_guess_${i}`);
    await authenticator.authenticate('sk_guess_10000');
    await authenticator.authenticate('sk_guess_0');
    expect(lookups).toHaveLength(10_002);
    expect(lookups.at(-1)).toBe('sk_guess_0');
  });
});
