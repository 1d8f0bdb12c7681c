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
