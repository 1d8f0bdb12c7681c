import { execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startupBanner } from '../../apps/api/src/banner';
import { DemoMerchantService } from '@app/features/merchants';
import { type RunningApp, startApp } from '../support/app';
import { freePort } from '../support/processes';
import { waitFor } from '../support/wait';

const run = promisify(execFile);

/** The banner's commands, one string each (a command continues over lines ending in a backslash). */
function commandsOf(banner: string): string[] {
  const commands: string[] = [];
  let current: string | undefined;
  for (const line of banner.split('\n').map((l) => l.trim())) {
    if (current !== undefined) current += `\n${line}`;
    else if (line.startsWith('curl ')) current = line;
    if (current !== undefined && !line.endsWith('\\')) {
      commands.push(current);
      current = undefined;
    }
  }
  return commands;
}

/** What a new user copies from the first screen of `npm start`, run as they would run it, in a shell. */
describe('the start-up banner', () => {
  let running: RunningApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'banner-'));
    running = await startApp({ env: { DEMO_MERCHANT: 'true', DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints commands that create an escrow, pay it, release the demo merchant’s share and read its history, each working as printed', async () => {
    const demo = (await running.app.get(DemoMerchantService).ensure())!;
    const banner = startupBanner({ ...running.config, publicBaseUrl: running.baseUrl }, demo);
    expect(banner).toContain(`Auditor key:    ${demo.auditorKey}`);
    expect(banner).toContain('npm run example:receiver');
    const [onboard, create, pay, release, audit] = commandsOf(banner);
    const shell = async (command: string) => JSON.parse((await run('bash', ['-c', command])).stdout) as { data: any };

    expect((await shell(onboard)).data).toMatchObject({ reference: 'courier-1', type: 'individual' });
    const created = await shell(create);
    expect(created.data).toMatchObject({ status: 'PENDING', callbackURL: 'http://localhost:4000/callbacks' });
    expect(release).toContain(`/v1/trdp/escrow/${created.data.escrowId}/release`);
    expect((await shell(pay)).data).toMatchObject({ status: 'PAID', escrow_id: created.data.escrowId });
    expect((await shell(release)).data.allocations.find((a: { merchantId: string }) => a.merchantId === demo.merchantId)).toMatchObject({ status: 'RELEASED' });
    const history = await shell(audit);
    expect(JSON.stringify(history.data)).toContain('AllocationReleased');
  });

  it('announces only what a process of its ROLE serves: the REST edge no dashboard, the faces no API', async () => {
    const demo = (await running.app.get(DemoMerchantService).ensure())!;
    const bannerOf = (role: 'all' | 'rest' | 'faces') => startupBanner({ ...running.config, role, publicBaseUrl: running.baseUrl }, demo);
    const announces = (banner: string) => ({
      docs: banner.includes(`${running.baseUrl}/docs`),
      dashboard: banner.includes(`${running.baseUrl}/dashboard`) || banner.includes(demo.dashboard.password),
      auditConsole: banner.includes(`${running.baseUrl}/audit`) || banner.includes('audit console'),
      requests: commandsOf(banner).length > 0,
      auditorKey: banner.includes(demo.auditorKey),
    });
    expect(announces(bannerOf('all'))).toEqual({ docs: true, dashboard: true, auditConsole: true, requests: true, auditorKey: true });
    expect(announces(bannerOf('rest'))).toEqual({ docs: true, dashboard: false, auditConsole: false, requests: true, auditorKey: true });
    expect(announces(bannerOf('faces'))).toEqual({ docs: false, dashboard: true, auditConsole: true, requests: false, auditorKey: true });
  });

  it('keeps the demo’s auditor key across starts, and it opens the audit API', async () => {
    const demo = (await running.app.get(DemoMerchantService).ensure())!;
    expect(await running.app.get(DemoMerchantService).ensure()).toEqual(demo);
    const integrity = await fetch(`${running.baseUrl}/v1/audit/integrity`, { headers: { 'x-auditor-key': demo.auditorKey } });
    expect(integrity.status).toBe(200);
  });
});

/**
 * `npm run example:receiver`, started (as the README's second terminal may be) before the service has
 * written the demo merchant to DATA_DIR: it waits for it, then listens on RECEIVER_PORT, never on the
 * service's PORT, which the same shell may have set.
 */
it('npm run example:receiver waits for the demo merchant the service writes to DATA_DIR, listens on RECEIVER_PORT and verifies its callbacks', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'receiver-'));
  const [port, servicePort] = [await freePort(), await freePort()];
  const receiver = spawn(process.execPath, ['scripts/example-receiver.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(servicePort), RECEIVER_PORT: String(port), WEBHOOK_SECRET: '' },
  });
  let output = '';
  receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  receiver.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitFor(async () => output.includes('Waiting for the service'), 'the receiver to wait for the service');
    const running = await startApp({ env: { DEMO_MERCHANT: 'true', DATA_DIR: dataDir } });
    const demo = (await running.app.get(DemoMerchantService).ensure())!;
    await running.close();
    await waitFor(async () => output.includes('listening'), 'the receiver to listen');
    const body = JSON.stringify({ billRefNo: 'DEMO-1', status: 'PAID', message: 'Payment received', amount: 1500, deliveryId: 'dlv_banner' });
    const timestamp = String(Date.now());
    const sign = (secret: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const post = (signature: string) =>
      fetch(`http://127.0.0.1:${port}/callbacks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature }, body });
    expect((await post(sign('whsec_someone-else'))).status).toBe(401);
    expect((await post(sign(demo.webhookSecret))).status).toBe(200);
    await waitFor(async () => output.includes('DEMO-1: PAID'), 'the receiver to print the callback');
  } finally {
    receiver.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
