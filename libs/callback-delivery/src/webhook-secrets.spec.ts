import type { LogPosition, RecordedEvent } from '@app/event-store';
import { WebhookSecrets } from './webhook-secrets';

const at = (commit: number): LogPosition => ({ commit: BigInt(commit), prepare: BigInt(commit) });

function logEvent(type: string, commit: number, data: unknown = {}): RecordedEvent {
  return { id: `e-${commit}`, streamId: 's', revision: 0n, type, data, metadata: {}, recordedAt: new Date(), position: at(commit) };
}
const rotated = (merchantId: string, commit: number) => logEvent('MerchantWebhookSecretRotated', commit, { merchantId, rotatedAt: '' });

const M1 = { merchantId: 'm-1' };
const ENDPOINT = { merchantId: 'm-1', endpointId: 'we_1' };
const ACCOUNT = { merchantId: `acct_${'a'.repeat(32)}` };

/** The sealed secrets tables: what a rotation changes before its event is appended. */
class Credentials {
  current = new Map([['m-1', 'whsec_old']]);
  endpoints = new Map([['we_1', 'whsec_endpoint_old']]);
  accounts = new Map([[ACCOUNT.merchantId, 'whsec_account_old']]);
  reads = 0;
  async webhookSecret(merchantId: string): Promise<string | undefined> {
    this.reads += 1;
    return this.current.get(merchantId);
  }
  async accountWebhookSecret(accountId: string): Promise<string> {
    this.reads += 1;
    return this.accounts.get(accountId)!;
  }
  async endpointSecret(endpointId: string): Promise<string | undefined> {
    this.reads += 1;
    return this.endpoints.get(endpointId);
  }
}

describe('WebhookSecrets', () => {
  let credentials: Credentials;
  let now: number;
  let secrets: WebhookSecrets;

  beforeEach(() => {
    credentials = new Credentials();
    now = 0;
    secrets = new WebhookSecrets(credentials, 30_000, () => now);
    secrets.follow([logEvent('EscrowFunded', 10)]);
  });

  it('reads a secret once, then signs jobs the follower has passed from memory', async () => {
    expect(await secrets.secretFor(M1, at(10))).toBe('whsec_old');
    expect(await secrets.secretFor(M1, at(9))).toBe('whsec_old');
    expect(credentials.reads).toBe(1);
  });

  it('a rotation followed at once by a callback: the callback is signed with the new secret', async () => {
    await secrets.secretFor(M1, at(10));
    credentials.current.set('m-1', 'whsec_new');
    secrets.follow([rotated('m-1', 11), logEvent('EscrowFunded', 12)]);

    expect(await secrets.secretFor(M1, at(12))).toBe('whsec_new');
  });

  it("a job following an event this process's follower has not reached yet reads the secret: the rotation before it may be unseen", async () => {
    await secrets.secretFor(M1, at(10));
    credentials.current.set('m-1', 'whsec_new');
    // Another process dispatched an event after the rotation; this one's follower is still at 10.

    expect(await secrets.secretFor(M1, at(12))).toBe('whsec_new');
    expect(credentials.reads).toBe(2);
  });

  it('a read that overlapped a rotation is used once and not kept', async () => {
    let finish!: () => void;
    credentials.webhookSecret = async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return 'whsec_old';
    };
    const reading = secrets.secretFor(M1, at(10));
    secrets.follow([rotated('m-1', 11)]);
    finish();
    expect(await reading).toBe('whsec_old');

    credentials.webhookSecret = Credentials.prototype.webhookSecret.bind(credentials);
    credentials.current.set('m-1', 'whsec_new');
    expect(await secrets.secretFor(M1, at(11))).toBe('whsec_new');
  });

  it('first attempts asking for one secret at once, at a cold start, share one read', async () => {
    const signed = await Promise.all([secrets.secretFor(M1, at(10)), secrets.secretFor(M1, at(9)), secrets.secretFor(M1, at(10))]);

    expect(signed).toEqual(['whsec_old', 'whsec_old', 'whsec_old']);
    expect(credentials.reads).toBe(1);
  });

  it('a job asking while a read begun before a rotation is in flight reads again, and gets the new secret', async () => {
    let finish!: () => void;
    credentials.webhookSecret = async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return 'whsec_old';
    };
    const before = secrets.secretFor(M1, at(10));
    secrets.follow([rotated('m-1', 11)]);
    credentials.webhookSecret = Credentials.prototype.webhookSecret.bind(credentials);
    credentials.current.set('m-1', 'whsec_new');

    expect(await secrets.secretFor(M1, at(11))).toBe('whsec_new');
    finish();
    expect(await before).toBe('whsec_old');
  });

  it('a job the follower has not passed does not share a read in flight: it may follow a rotation the read predates', async () => {
    let finish!: () => void;
    credentials.webhookSecret = async () => {
      await new Promise<void>((resolve) => (finish = resolve));
      return 'whsec_old';
    };
    const before = secrets.secretFor(M1, at(10));
    credentials.webhookSecret = Credentials.prototype.webhookSecret.bind(credentials);
    credentials.current.set('m-1', 'whsec_new');

    expect(await secrets.secretFor(M1, at(12))).toBe('whsec_new');
    finish();
    await before;
  });

  it('a job that names no position (the reconciler queued it) reads the secret', async () => {
    await secrets.secretFor(M1, at(10));
    credentials.current.set('m-1', 'whsec_new');

    expect(await secrets.secretFor(M1, undefined)).toBe('whsec_new');
  });

  it('a secret older than its bound is read again, should the rotation event never come', async () => {
    await secrets.secretFor(M1, at(10));
    credentials.current.set('m-1', 'whsec_new');
    now = 29_999;
    expect(await secrets.secretFor(M1, at(10))).toBe('whsec_old');
    now = 30_000;
    expect(await secrets.secretFor(M1, at(10))).toBe('whsec_new');
  });

  it("another merchant's rotation leaves this one's secret cached", async () => {
    await secrets.secretFor(M1, at(10));
    secrets.follow([rotated('m-2', 11)]);
    await secrets.secretFor(M1, at(11));
    expect(credentials.reads).toBe(1);
  });

  it("keeps an endpoint's secret apart from its merchant's, and drops it on the endpoint's rotation or deletion only", async () => {
    expect(await secrets.secretFor(ENDPOINT, at(10))).toBe('whsec_endpoint_old');
    expect(await secrets.secretFor(M1, at(10))).toBe('whsec_old');
    credentials.endpoints.set('we_1', 'whsec_endpoint_new');
    secrets.follow([logEvent('WebhookEndpointSecretRotated', 11, { endpointId: 'we_1', merchantId: 'm-1', rotatedAt: '' })]);
    expect(await secrets.secretFor(ENDPOINT, at(11))).toBe('whsec_endpoint_new');
    expect(credentials.reads).toBe(3);
    expect(await secrets.secretFor(M1, at(11))).toBe('whsec_old');
    expect(credentials.reads).toBe(3);
    credentials.endpoints.delete('we_1');
    secrets.follow([logEvent('WebhookEndpointDeleted', 12, { endpointId: 'we_1', merchantId: 'm-1', deletedAt: '' })]);
    expect(await secrets.secretFor(ENDPOINT, at(12))).toBeUndefined();
  });

  it("signs a seller account's callbacks with the account's own secret, and drops it on the account's rotation", async () => {
    expect(await secrets.secretFor(ACCOUNT, at(10))).toBe('whsec_account_old');
    credentials.accounts.set(ACCOUNT.merchantId, 'whsec_account_new');
    secrets.follow([logEvent('AccountWebhookSecretRotated', 11, { accountId: ACCOUNT.merchantId, merchantId: 'm-1', rotatedAt: '' })]);
    expect(await secrets.secretFor(ACCOUNT, at(11))).toBe('whsec_account_new');
    expect(await secrets.secretFor(M1, at(11))).toBe('whsec_old');
  });
});
