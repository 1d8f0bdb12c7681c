import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '@app/database';
import { EVENT_STORE_MIGRATIONS } from '@app/event-store';
import { CREDENTIAL_MIGRATIONS } from '@app/credentials';
import { readReleaseFixture, readReleaseLog, storeReleaseLog } from '../../libs/event-store/src/testing/release-log';
import { ChapaSimulator } from '../../libs/payments/src/testing/chapa-simulator';
import { startApp, TEST_ADMIN_KEY, type RunningApp } from '../support/app';
import { finished, spawnCli } from '../support/cli';
import { escrowRequest } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

interface Credentials {
  secretsKey: string;
  merchants: { merchant_id: string; api_secret_hash: string; webhook_secret_sealed: string; id_salt: string; api_secret_last4: string | null }[];
  apiSecrets: Record<string, string>;
  escrows: string[];
}

const KEYS = {
  CHAPA_SECRET_KEY: 'CHASECK-e2eLiveSecretKeyOfTheAccount',
  CHAPA_ENCRYPTION_KEY: 'E2eEncryptionKey24Chars!',
  CHAPA_WEBHOOK_SECRET: 'e2e-webhook-secret-hash',
};

const credentials = readReleaseFixture<Credentials>('credentials.json');
const [merchantId] = Object.keys(credentials.apiSecrets);

/** A schema holding what that release left: its log, and its merchants' credentials (without a mode). */
async function releaseSchema(prefix: string): Promise<TestSchema> {
  const schema = await createTestSchema(prefix);
  const db = schema.client;
  await migrate(db, schema.schema, 'event-store', EVENT_STORE_MIGRATIONS);
  await migrate(db, schema.schema, 'merchants', CREDENTIAL_MIGRATIONS);
  await storeReleaseLog(db, readReleaseLog());
  for (const m of credentials.merchants) {
    await db.query(`INSERT INTO merchant_credentials (merchant_id, api_secret_hash, webhook_secret_sealed, id_salt, api_secret_last4) VALUES ($1, $2, $3, $4, $5)`, [
      m.merchant_id,
      m.api_secret_hash,
      m.webhook_secret_sealed,
      m.id_salt,
      m.api_secret_last4,
    ]);
  }
  return schema;
}

/**
 * The reproduction (docs/concepts/modes.md): a data directory built on the sandbox by a release
 * from before modes (test/fixtures/release-2026-11-23) started with a live Chapa key. Its history is test
 * money: recorded so once, read so by its old keys, settled by the sandbox, and never sent to Chapa.
 */
describe('a sandbox-built log from before modes, started with a live provider', () => {
  const oldKey = { 'x-api-secret': credentials.apiSecrets[merchantId] };
  let schema: TestSchema;
  let running: RunningApp;
  let simulator: ChapaSimulator;

  beforeAll(async () => {
    schema = await releaseSchema('legacy_modes');
    simulator = new ChapaSimulator({ ...{ secretKey: KEYS.CHAPA_SECRET_KEY, encryptionKey: KEYS.CHAPA_ENCRYPTION_KEY, webhookSecret: KEYS.CHAPA_WEBHOOK_SECRET }, webhookUrl: () => `${running.baseUrl}/v1/providers/chapa/notifications`, delayMs: 30 });
    const chapaUrl = await simulator.start();
    running = await startApp({ schema, env: { SECRETS_KEY: credentials.secretsKey, PAYMENT_PROVIDER: 'chapa', ...KEYS, CHAPA_BASE_URL: chapaUrl } });
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${credentials.escrows.at(-1)}`, { headers: oldKey })).status === 200, 'the projector to replay the old log');
  });
  afterAll(async () => {
    await running?.stop();
    await simulator?.close();
    await schema?.drop();
  });

  it('records once that the history is test money, and why', async () => {
    const decided = await schema.client.query<{ event_type: string; data: { mode: string; reason: string } }>(`SELECT event_type, data FROM events WHERE stream_id = 'deployment-modes-legacy'`);
    expect(decided).toEqual([{ event_type: 'LegacyModeDecided', data: expect.objectContaining({ mode: 'test', reason: 'the history holds payments the sandbox settled' }) }]);
  });

  it('reads the old escrows with the old key as test objects', async () => {
    for (const id of credentials.escrows) expect((await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${id}`, { headers: oldKey })).body.data.livemode).toBe(false);
  });

  it('settles the old merchant’s new money through the sandbox, and Chapa hears nothing of it', async () => {
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined, allocations: [{ merchantId, amount: 1000.5 }] }), headers: oldKey });
    expect([created.status, created.body.data.livemode]).toEqual([201, false]);
    const { escrowId } = created.body.data as { escrowId: string };
    expect((await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers: oldKey })).status).toBe(200);
    await waitFor(async () => (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers: oldKey })).body.data.status === 'HELD', 'the escrow to be held');
    expect(simulator.requests).toEqual([]);
  });

  it('opens the old merchant’s live mode once, on the operator’s request: a new tenant that sees none of the test history', async () => {
    const admin = { 'x-admin-key': TEST_ADMIN_KEY };
    const opened = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchantId}/other-mode`, { headers: admin });
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({ livemode: true, twinId: merchantId, apiSecret: expect.stringMatching(/^sk_live_/), webhookSecret: expect.stringMatching(/^whsec_live_/) });
    expect(opened.body.data.merchantId).not.toBe(merchantId);
    const liveKey = { 'x-api-secret': opened.body.data.apiSecret as string };
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${credentials.escrows[0]}`, { headers: liveKey })).status).toBe(404);
    expect((await call(running.baseUrl, 'GET', '/v1/trdp/balance', { headers: liveKey })).body.data.livemode).toBe(true);
    const again = await call(running.baseUrl, 'POST', `/v1/admin/merchants/${merchantId}/other-mode`, { headers: admin });
    expect([again.status, again.body.error.code]).toEqual([409, 'MERCHANT_HAS_OTHER_MODE']);
  });
});

/**
 * The operator's CLI run on such a log before the service of this release ever started: without the
 * service's settings (no PAYMENT_PROVIDER here), it must not be what decides the old merchants' mode.
 */
describe('the CLI before the service’s first start on a log from before modes', () => {
  let schema: TestSchema;
  let dataDir: string;

  beforeAll(async () => {
    schema = await releaseSchema('legacy_cli');
    dataDir = mkdtempSync(join(tmpdir(), 'legacy-cli-'));
  });
  afterAll(async () => {
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    finished(spawnCli(args, { USER: 'cli-test', DATABASE_URL: schema.url, DATABASE_SCHEMA: schema.schema, SECRETS_KEY: credentials.secretsKey, DATA_DIR: dataDir }));
  const decisions = () => schema.client.query<{ data: { mode: string; reason: string } }>(`SELECT data FROM events WHERE stream_id = 'deployment-modes-legacy'`);
  const listed = async () => {
    const run = await cli('--json', 'merchants', 'list');
    expect([run.code, run.stderr]).toEqual([0, '']);
    return (JSON.parse(run.stdout) as { merchantId: string; mode: string | null }[]).find((m) => m.merchantId === merchantId)!.mode;
  };

  it('decides nothing: lists the old merchant’s mode as undecided and refuses a new key for it, until the service’s start decides', async () => {
    expect(await listed()).toBeNull();
    const human = await cli('merchants', 'list');
    expect(human.stdout.split('\n').find((line) => line.startsWith(merchantId))).toMatch(/\sundecided\s/);
    const rotate = await cli('merchants', 'rotate-secret', merchantId);
    expect(rotate.code).toBe(1);
    expect(rotate.stderr).toContain('has not decided their mode yet');
    expect(rotate.stderr).toContain('Start the service once');
    expect(await decisions()).toEqual([]);

    const service = await startApp({ schema, env: { SECRETS_KEY: credentials.secretsKey } });
    await service.stop();
    expect(await decisions()).toEqual([{ data: expect.objectContaining({ mode: 'test', reason: 'PAYMENT_PROVIDER=sandbox' }) }]);
    expect(await listed()).toBe('test');
    const rotated = await cli('--json', 'merchants', 'rotate-secret', merchantId);
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout).apiSecret).toMatch(/^sk_test_/);
  });
});
