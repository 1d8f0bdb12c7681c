/**
 * The operator CLI (apps/cli), run as operators run it: the built entry point in its own Node
 * process, configured from the environment, against the PostgreSQL schema of a running service that
 * has data. Its effects are checked through the service's HTTP API and the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_PROJECTIONS } from '@app/read-models';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { type CliProcess, type CliRun, finished, spawnCli as startCli } from '../support/cli';
import { createTestSchema } from '../support/postgres';
import { escrowRequest, orderRequest, registerMarketplace, type TestMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { waitFor } from '../support/wait';

const ENV = { SANDBOX_DELAY_MS: '30', REFUND_RETRY_MS: '100' };

describe('operator CLI against a running service (PostgreSQL)', () => {
  let running: RunningApp;
  let merchant: TestMarketplace;
  let receiver: Server;
  let callbackURL: string;
  let dataDir: string;
  const children: CliProcess[] = [];

  const as = (secret: string) => ({ 'x-api-secret': secret });

  function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
    const handle = startCli(args, {
      USER: 'cli-test',
      DATABASE_URL: running.schema!.url,
      DATABASE_SCHEMA: running.schema!.schema,
      SECRETS_KEY: '11'.repeat(32),
      DATA_DIR: dataDir,
      ...env,
    });
    children.push(handle);
    return handle;
  }

  /** Runs a command to completion (bounded); a first argument `{ env }` overrides the environment. */
  async function cli(...args: [{ env: Record<string, string> }, ...string[]] | string[]): Promise<CliRun> {
    const [options, rest] = typeof args[0] === 'string' ? [{ env: {} }, args as string[]] : [args[0], args.slice(1) as string[]];
    return finished(spawnCli(rest, options.env));
  }

  /** Runs a `--json` command that must succeed, and parses its one JSON document. */
  async function cliJson<T = any>(...args: string[]): Promise<T> {
    const run = await cli('--json', ...args);
    if (run.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${run.code}: ${run.stderr}${run.stdout}`);
    return JSON.parse(run.stdout) as T;
  }

  async function createOrder(secret = merchant.apiSecret): Promise<string> {
    const res = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL }), headers: as(secret) });
    expect(res.status).toBe(201);
    return res.body.data.order_id;
  }

  async function eventCount(): Promise<number> {
    const [row] = await running.schema!.client.query<{ count: number }>(`SELECT count(*)::int AS count FROM events`);
    return row.count;
  }

  /** Nothing in flight: no callback pending, both followers of the log at its head. */
  async function quiet(): Promise<void> {
    await waitFor(async () => {
      const [row] = await running.schema!.client.query<{ pending: number; lag: number }>(
        `SELECT (SELECT count(*)::int FROM callback_deliveries_view WHERE status = 'PENDING')
              + (SELECT count(*)::int FROM provider_operations WHERE kind = 'refund' AND status = 'OPEN') AS pending,
                (SELECT count(*)::int FROM events e JOIN projection_checkpoints c
                   ON (e.transaction_id::text::numeric, e.global_position) > (c.commit_position, c.prepare_position)) AS lag`,
      );
      return row.pending === 0 && row.lag === 0;
    }, 'the service to settle');
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cli-spec-'));
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;

    running = await startApp({ env: ENV });
    merchant = await registerMarketplace(running.baseUrl, 'Merkato Online');
    // Some money moved: paid orders, an escrow paid and partly released, one cancelled and refunded.
    const post = (path: string, body: unknown) => call(running.baseUrl, 'POST', path, { body, headers: as(merchant.apiSecret) });
    for (let i = 0; i < 3; i += 1) {
      const orderId = await createOrder();
      expect((await post(`/v1/sandbox/orders/${orderId}/complete`, { outcome: i === 2 ? 'FAILED' : 'PAID' })).status).toBe(200);
    }
    for (const then of ['release', 'cancel']) {
      const escrow = await post('/v1/trdp/escrow/order', escrowRequest({ callbackURL }));
      expect(escrow.status).toBe(201);
      const escrowId = escrow.body.data.escrowId;
      expect((await post(`/v1/sandbox/orders/${escrowId}/complete`, { outcome: 'PAID' })).status).toBe(200);
      const res = then === 'release' ? await post(`/v1/trdp/escrow/${escrowId}/release`, { merchantId: merchant.seller1 }) : await post(`/v1/trdp/escrow/${escrowId}/cancel`, {});
      expect(res.status).toBe(200);
    }
    await quiet();
  });

  afterAll(async () => {
    for (const proc of children) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await running?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe('merchants', () => {
    let created: { merchantId: string; apiSecret: string; webhookSecret: string; live: { merchantId: string } };

    it('creates a merchant and prints its secrets; the API accepts its API secret', async () => {
      created = await cliJson('merchants', 'create', '--name', 'CLI Bazaar');
      expect(created).toEqual({
        merchantId: expect.stringMatching(/^mer_/),
        name: 'CLI Bazaar',
        apiSecret: expect.stringMatching(/^sk_test_/),
        webhookSecret: expect.stringMatching(/^whsec_test_/),
        live: { merchantId: expect.stringMatching(/^mer_/), apiSecret: expect.stringMatching(/^sk_live_/), webhookSecret: expect.stringMatching(/^whsec_live_/) },
      });
      const res = await call(running.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL }), headers: as(created.apiSecret) });
      expect(res.status).toBe(201);
      expect(res.body.data.metadata.merchant_id).toBe(created.merchantId);
      // The log says who did it: the CLI operator, as an admin.
      const [event] = await running.schema!.client.query<{ data: any; metadata: any }>(
        `SELECT data, metadata FROM events WHERE stream_id = $1 AND event_type = 'MerchantRegistered'`,
        [`merchant-${created.merchantId}`],
      );
      expect(event.data.name).toBe('CLI Bazaar');
      expect(event.metadata.actor).toEqual({ type: 'admin', id: 'cli:cli-test' });
      expect(JSON.stringify(event)).not.toContain(created.apiSecret);
    });

    it('lists merchants, as JSON and as a readable table', async () => {
      const [list, human] = await Promise.all([cliJson<{ merchantId: string; name: string; mode: string | null; registeredAt: string }[]>('merchants', 'list'), cli('merchants', 'list')]);
      // Each owner is two tenants (docs/concepts/modes.md): its test one, registered first, then its live one.
      const rows = list.map((m) => [m.merchantId, m.name]);
      expect(rows.filter(([id]) => id !== merchant.merchantId && id !== created.merchantId && id !== created.live.merchantId)).toEqual([[expect.stringMatching(/^mer_/), 'Merkato Online']]);
      expect(rows.filter(([id]) => [merchant.merchantId, created.merchantId, created.live.merchantId].includes(id))).toEqual([
        [merchant.merchantId, 'Merkato Online'],
        [created.merchantId, 'CLI Bazaar'],
        [created.live.merchantId, 'CLI Bazaar'],
      ]);
      expect(list.every((m) => !Number.isNaN(Date.parse(m.registeredAt)))).toBe(true);
      const modeOf = (id: string) => list.find((m) => m.merchantId === id)!.mode;
      expect([modeOf(merchant.merchantId), modeOf(created.merchantId), modeOf(created.live.merchantId)]).toEqual(['test', 'test', 'live']);

      expect(human.code).toBe(0);
      const lines = human.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^merchantId\s+name\s+mode\s+registeredAt$/);
      expect(lines[1]).toMatch(/^-+\s+-+\s+-+\s+-+$/);
      expect(lines.slice(2).map((line) => line.split(/\s{2,}/).slice(0, 3))).toEqual(list.map((m) => [m.merchantId, m.name, m.mode]));
      expect(human.stdout).not.toContain('{');
    });

    it('rotates the API secret: the new one works, and a fresh service process refuses the old one', async () => {
      const rotated = await cliJson<{ merchantId: string; apiSecret: string }>('merchants', 'rotate-secret', created.merchantId);
      expect(rotated).toEqual({ merchantId: created.merchantId, apiSecret: expect.stringMatching(/^sk_/) });
      expect(rotated.apiSecret).not.toBe(created.apiSecret);
      // The running service may still have the old secret in its auth cache (seconds); a new process has none.
      expect(await createOrder(rotated.apiSecret)).toMatch(/^ord_/);
      const fresh = await startApp({ env: ENV, schema: running.schema });
      try {
        const old = await call(fresh.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL }), headers: as(created.apiSecret) });
        expect(old.status).toBe(401);
        const current = await call(fresh.baseUrl, 'POST', '/v1/trdp/order', { body: orderRequest({ callbackURL }), headers: as(rotated.apiSecret) });
        expect(current.status).toBe(201);
      } finally {
        await fresh.stop();
      }
      const [view] = await running.schema!.client.query<{ api_secret_rotated_at: Date | null }>(
        `SELECT api_secret_rotated_at FROM merchants_view WHERE merchant_id = $1`,
        [created.merchantId],
      );
      expect(view.api_secret_rotated_at).toBeInstanceOf(Date);
    });

    it('fails with exit code 1 and a message for an unknown merchant', async () => {
      const run = await cli('merchants', 'rotate-secret', 'mer_does_not_exist');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/mer_does_not_exist|not found/i);
      expect(run.stdout).toBe('');
    });
  });

  describe('without a running service', () => {
    it('brings the read models up to date with its own projector, and exits once done', async () => {
      const alone = await createTestSchema('cli');
      const env = { DATABASE_URL: alone.url, DATABASE_SCHEMA: alone.schema };
      try {
        // Nobody else follows this log: each command's projector takes the lead, and must let go at exit.
        const runs = await Promise.all(['Solo One', 'Solo Two', 'Solo Three'].map((name) => cli({ env }, '--json', 'merchants', 'create', '--name', name)));
        expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
        const ids = runs.flatMap((r) => [JSON.parse(r.stdout).merchantId as string, JSON.parse(r.stdout).live.merchantId as string]);
        const [list, status] = await Promise.all([cli({ env }, '--json', 'merchants', 'list'), cli({ env }, '--json', 'projections', 'status')]);
        expect({ list: list.code, status: status.code }).toEqual({ list: 0, status: 0 });
        expect(JSON.parse(list.stdout).map((m: { merchantId: string }) => m.merchantId).sort()).toEqual([...ids].sort());
        expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ name: 'read-models', lagEvents: 0 })]);
      } finally {
        await alone.drop();
      }
    });
  });

  describe('auditors', () => {
    it('creates an auditor key that opens the audit API', async () => {
      const auditor = await cliJson<{ auditorId: string; auditorKey: string }>('auditors', 'create', '--name', 'Finance team');
      expect(auditor.auditorId).toMatch(/^aud_/);
      expect(typeof auditor.auditorKey).toBe('string');
      const res = await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: { 'x-auditor-key': auditor.auditorKey } });
      expect(res.status).toBe(200);
      expect(res.body.data.ok).toBe(true);
      const refused = await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: { 'x-auditor-key': `${auditor.auditorKey}x` } });
      expect(refused.status).toBe(401);
    });
  });

  describe('staff', () => {
    it("creates a staff member's admin key, which names them in the decisions it takes, and revokes it", async () => {
      const member = await cliJson<{ staffId: string; staffKey: string }>('staff', 'create', '--name', 'Almaz Tesfaye');
      expect(member).toEqual({ staffId: expect.stringMatching(/^stf_[0-9a-f]{24}$/), staffKey: expect.stringMatching(/^sfk_/) });
      const asStaff = { 'x-admin-key': member.staffKey };
      const accountId = (await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: 'CLI Staff Seller', type: 'individual' }, headers: as(merchant.apiSecret) })).body.data.accountId;
      const approved = await call(running.baseUrl, 'POST', `/v1/admin/accounts/${accountId}/approve`, { body: {}, headers: asStaff });
      expect([approved.status, approved.body.data.decidedBy]).toEqual([200, { type: 'admin', id: member.staffId }]);

      expect(await cliJson('staff', 'revoke', member.staffId)).toEqual({ staffId: member.staffId, revoked: true });
      expect((await call(running.baseUrl, 'GET', '/v1/audit/integrity', { headers: asStaff })).status).toBe(401);
      const unknown = await cli('staff', 'revoke', 'stf_nobody');
      expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'No staff member stf_nobody']);
    });
  });

  describe('ledger and projections', () => {
    beforeAll(() => quiet());

    it('prints a balanced trial balance, the same as the audit API', async () => {
      const [trial, human] = await Promise.all([cliJson('ledger', 'trial-balance', '--mode', 'test'), cli('ledger', 'trial-balance', '--mode', 'test')]);
      expect(trial.balanced).toBe(true);
      expect(trial.totalDebits).toBeGreaterThan(0);
      expect(trial.totalDebits).toBe(trial.totalCredits);
      const api = await call(running.baseUrl, 'GET', '/v1/audit/ledger/trial-balance?mode=test', { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(trial).toEqual(api.body.data);

      expect(human.code).toBe(0);
      expect(human.stdout).toContain('account');
      expect(human.stdout).toMatch(/debits [\d.]+ ETB, credits [\d.]+ ETB: balanced/);
    });

    it('reports where each follower of the log stands, the read models caught up', async () => {
      const status = await cliJson<{ name: string; position: string; lagEvents: number; updatedAt: string }[]>('projections', 'status');
      expect(status.map((s) => s.name)).toEqual(['callback-dispatcher', 'read-models']);
      const readModels = status.find((s) => s.name === 'read-models')!;
      expect(readModels.lagEvents).toBe(0);
      const [checkpoint] = await running.schema!.client.query<{ position: string }>(
        `SELECT commit_position::text || '-' || prepare_position::text AS position FROM projection_checkpoints WHERE name = 'read-models'`,
      );
      expect(readModels.position).toBe(checkpoint.position);
      expect(Date.parse(readModels.updatedAt)).not.toBeNaN();
    });

    it('rebuilds the projections while the service runs, reporting the events replayed', async () => {
      const orderId = await createOrder();
      await quiet();
      const events = await eventCount();
      const rebuilt = await cliJson<{ rebuilt: string[]; events: number; position: string; seconds: number }>('projections', 'rebuild');
      expect(rebuilt).toEqual({ rebuilt: CORE_PROJECTIONS.map((p) => p.name), events, position: expect.stringMatching(/^\d+-\d+$/), seconds: expect.any(Number) });
      const [schemas] = await running.schema!.client.query<{ count: number }>(`SELECT count(*)::int AS count FROM pg_namespace WHERE nspname = $1`, [
        `${running.schema!.schema}__rebuild`,
      ]);
      expect(schemas.count).toBe(0);
      // The service reads from the rebuilt tables, and keeps projecting into them.
      const get = await call(running.baseUrl, 'GET', `/v1/trdp/order/${orderId}`, { headers: as(merchant.apiSecret) });
      expect(get.status).toBe(200);
      const after = await createOrder();
      expect((await call(running.baseUrl, 'POST', '/v1/trdp/verify', { body: { orderId: after }, headers: as(merchant.apiSecret) })).status).toBe(200);

      const ledger = await cliJson('projections', 'rebuild', 'ledger');
      expect(ledger.rebuilt).toEqual(['ledger']);
      expect(ledger.events).toBeGreaterThanOrEqual(events + 1);
      expect((await cliJson('ledger', 'trial-balance', '--mode', 'test')).balanced).toBe(true);

      const unknown = await cli('projections', 'rebuild', 'nope');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('unknown projection nope');
    });
  });

  describe('events tail', () => {
    it('prints the existing log as JSON lines, then follows it live until SIGTERM (exit 0)', async () => {
      await quiet();
      const existing = await eventCount();
      const jsonTail = spawnCli(['--json', 'events', 'tail', '--from', 'start']);
      const humanTail = spawnCli(['events', 'tail']); // from now
      const parsed = () =>
        jsonTail
          .stdout()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line));
      await waitFor(async () => parsed().length >= existing, `the tail to print the ${existing} existing events:\n${jsonTail.stderr()}`);

      // The human tail starts at the head when it is ready: append until it shows one of ours.
      const ours: string[] = [];
      await waitFor(
        async () => {
          ours.push(await createOrder());
          await new Promise((resolve) => setTimeout(resolve, 500));
          return ours.some((id) => humanTail.stdout().includes(`order-${id}#0`));
        },
        `the human tail to print a new order:\n${humanTail.stdout()}${humanTail.stderr()}`,
      );
      await waitFor(async () => ours.every((id) => parsed().some((e) => e.streamId === `order-${id}`)), 'the JSON tail to print every new order');

      const lines = parsed();
      const [first] = await running.schema!.client.query<{ stream_id: string }>(
        `SELECT stream_id FROM events ORDER BY transaction_id, global_position LIMIT 1`,
      );
      // The log's first event is the mode its first start gave history (docs/concepts/modes.md).
      expect(lines[0]).toMatchObject({ streamId: first.stream_id, revision: '0', type: 'LegacyModeDecided' });
      for (const line of lines) {
        expect(line).toEqual({
          position: expect.stringMatching(/^\d+-\d+$/),
          recordedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          streamId: expect.any(String),
          revision: expect.stringMatching(/^\d+$/),
          type: expect.any(String),
          data: expect.anything(),
        });
      }
      // Log order, each event once.
      const positions = lines.map((l) => l.position.split('-').map(BigInt) as [bigint, bigint]);
      for (let i = 1; i < positions.length; i += 1) {
        const [a, b] = [positions[i - 1], positions[i]];
        expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
      }
      const newLine = lines.find((l) => l.streamId === `order-${ours[0]}`);
      expect(newLine).toMatchObject({ type: 'OrderCreated', revision: '0', data: expect.objectContaining({ amount: 25075 }) });

      // Human lines: position, time, stream#revision, type; only what was appended after it started.
      const human = humanTail.stdout().trimEnd().split('\n');
      expect(human.length).toBeGreaterThan(0);
      for (const line of human) expect(line).toMatch(/^\d+-\d+ {2}\d{4}-\d{2}-\d{2}T\S+Z {2}\S+#\d+ {2}\w+$/);
      expect(human.some((line) => new RegExp(`order-${ours[ours.length - 1]}#0  OrderCreated$`).test(line))).toBe(true);
      expect(human.every((line) => ours.some((id) => line.includes(`order-${id}#`)))).toBe(true);

      jsonTail.child.kill('SIGTERM');
      humanTail.child.kill('SIGTERM');
      expect(await jsonTail.exited).toBe(0);
      expect(await humanTail.exited).toBe(0);
      expect(jsonTail.stderr()).toBe('');
    });
  });

  describe('audit verify', () => {
    it('verifies the hash chain: exit 0, readable and as JSON', async () => {
      const [human, report] = await Promise.all([cli('audit', 'verify'), cliJson('audit', 'verify')]);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^OK: \d+ events in \d+ streams, every link holds\n$/);
      expect(report).toEqual({ ok: true, streamsChecked: expect.any(Number), eventsChecked: await eventCount(), firstBreak: null });
    });

    it('exits 1 and names the stream once an event has been tampered with', async () => {
      const orderId = await createOrder();
      const streamId = `order-${orderId}`;
      await running.schema!.client.query(
        `UPDATE events SET data = jsonb_set(data, '{amount}', '1') WHERE stream_id = $1 AND stream_revision = 0`,
        [streamId],
      );
      const [human, run] = await Promise.all([cli('audit', 'verify'), cli('--json', 'audit', 'verify')]);
      expect(human.code).toBe(1);
      expect(human.stdout).toContain(`BROKEN: ${streamId} at revision 0 (hash_mismatch)`);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, firstBreak: { streamId, revision: '0', reason: 'hash_mismatch' } });
    });
  });
});
