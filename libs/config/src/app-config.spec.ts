import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'config-')), SECRETS_KEY: '22'.repeat(32) });

describe('callbacks to private addresses', () => {
  it('are refused by default whenever the service runs on a real database, whatever the provider', () => {
    expect(loadConfig({ ...base(), DATABASE_URL: 'postgres://db.example/escrow' }).callbackAllowPrivateUrls).toBe(false);
    expect(loadConfig({ ...base(), DATABASE_URL: 'postgres://db.example/escrow', PAYMENT_PROVIDER: 'sandbox' }).callbackAllowPrivateUrls).toBe(false);
  });

  it('are allowed by default only in the embedded quick start, which calls back to the same machine', () => {
    expect(loadConfig(base()).callbackAllowPrivateUrls).toBe(true);
  });

  it('follow CALLBACK_ALLOW_PRIVATE_URLS when it is set', () => {
    expect(loadConfig({ ...base(), DATABASE_URL: 'postgres://db.example/escrow', CALLBACK_ALLOW_PRIVATE_URLS: 'true' }).callbackAllowPrivateUrls).toBe(true);
    expect(loadConfig({ ...base(), CALLBACK_ALLOW_PRIVATE_URLS: 'false' }).callbackAllowPrivateUrls).toBe(false);
  });
});

describe('PAYMENT_PROVIDER=chapa', () => {
  const chapa = () => ({
    ...base(),
    PAYMENT_PROVIDER: 'chapa',
    CHAPA_SECRET_KEY: 'CHASECK_TEST-abcdefghijklmnop',
    CHAPA_ENCRYPTION_KEY: 'ABCDEFGHIJKLMNOPQRSTUVWX',
    CHAPA_WEBHOOK_SECRET: 'a-long-webhook-secret',
  });

  it('reads the keys and points at Chapa unless told otherwise', () => {
    expect(loadConfig(chapa()).chapa).toEqual({
      secretKey: 'CHASECK_TEST-abcdefghijklmnop',
      encryptionKey: 'ABCDEFGHIJKLMNOPQRSTUVWX',
      webhookSecret: 'a-long-webhook-secret',
      baseUrl: 'https://api.chapa.co/v1',
    });
    expect(loadConfig({ ...chapa(), CHAPA_BASE_URL: 'http://127.0.0.1:9999/v1/' }).chapa?.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(loadConfig(base()).chapa).toBeUndefined();
  });

  it.each([
    ['CHAPA_SECRET_KEY', undefined, /needs CHAPA_SECRET_KEY/],
    ['CHAPA_SECRET_KEY', 'sk_live_not-a-chapa-key', /^CHAPA_SECRET_KEY must be/],
    ['CHAPA_ENCRYPTION_KEY', undefined, /needs CHAPA_ENCRYPTION_KEY/],
    ['CHAPA_ENCRYPTION_KEY', 'too-short-key', /^CHAPA_ENCRYPTION_KEY must be/],
    ['CHAPA_WEBHOOK_SECRET', 'short', /^CHAPA_WEBHOOK_SECRET must be/],
    ['CHAPA_BASE_URL', 'api.chapa.co', /^CHAPA_BASE_URL must be/],
  ])('stops at start naming %s when it is %s, without echoing a secret', (name, value, message) => {
    const env: Record<string, string | undefined> = { ...chapa(), [name]: value };
    let error: Error | undefined;
    try {
      loadConfig(env);
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.message).toMatch(message);
    if (name !== 'CHAPA_BASE_URL' && value) expect(error?.message).not.toContain(value);
  });
});
