import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DemoMerchantService } from '@app/features/merchants';
import { startApp } from '../support/app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

/** The shell blocks of a README section, in order. */
function shellBlocks(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  const end = readme.indexOf('\n## ', start + heading.length + 2);
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/**
 * README "First escrow in five commands", its third block run as written in a shell against the
 * embedded service (the first two start the service and the receiver, which this test does its own
 * way: it cannot run `npm ci`, and the receiver has a test of its own).
 */
it('README’s first escrow runs as written: created, paid, released, and its history readable by the auditor', async () => {
  const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), '## First escrow in five commands');
  expect(blocks.slice(0, 2).map((b) => b.trim())).toEqual(['npm ci && npm start', 'npm run example:receiver']);
  const dataDir = mkdtempSync(join(tmpdir(), 'first-escrow-'));
  const running = await startApp({ embeddedDataDir: dataDir, env: { DEMO_MERCHANT: 'true', SECRETS_KEY: '' } });
  try {
    const demo = (await running.app.get(DemoMerchantService).ensure())!;
    // In test mode with the test key (docs/concepts/modes.md): the sandbox moves its money, and every answer says so.
    expect(demo.apiSecret).toMatch(/^sk_test_/);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', blocks[2]], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, PUBLIC_BASE_URL: running.baseUrl } });
    const [paid, released, history] = stdout.trim().split('\n').map((line) => JSON.parse(line) as { data: any });
    expect(paid.data).toMatchObject({ status: 'PAID', escrow_status: 'HELD', livemode: false });
    const escrowId = paid.data.escrow_id as string;
    expect(released.data).toMatchObject({ escrowId, status: 'PARTIALLY_RELEASED', livemode: false });
    expect(released.data.allocations.find((a: { merchantId: string }) => a.merchantId === demo.merchantId)).toMatchObject({ status: 'RELEASED' });
    expect(history.data.events.map((e: { type: string }) => e.type)).toEqual(['EscrowCreated', 'EscrowFunded', 'AllocationReleased']);
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
