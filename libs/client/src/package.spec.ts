import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PACKAGE_DIR = resolve(__dirname, '..');
const ROOT = resolve(PACKAGE_DIR, '..', '..');

/** A merchant's program, typed against the installed declarations: a wrong body or answer field would not compile. */
const TYPED_USE = `
import { EscrowLedger, EscrowLedgerApiError, paginate, verifyCallback, type CreateEscrowDto } from '@escrow-ledger/client';

const ledger = new EscrowLedger({ baseUrl: 'http://localhost:3000', apiSecret: 'sk' });
const seller = ledger.forAccount('acct_1');
const body: CreateEscrowDto = { orderId: 'o', amount: 1, currency: 'ETB', customerName: 'A', customerPhoneNumber: '0911234567', items: [], allocations: [] };
export async function use(): Promise<string> {
  const created = await ledger.postEscrowOrder({ body });
  for await (const movement of paginate((startingAfter) => seller.getPayoutsByPayoutIdMovements({ path: { payoutId: 'p' }, query: { startingAfter } }), { items: (page) => page.movements, cursor: (m) => m.eventId })) movement.amount.toFixed(2);
  // @ts-expect-error an escrow is read for the key's own merchant only: the route refuses x-account-id
  void seller.getEscrowByEscrowId;
  try { await ledger.getEscrowByEscrowId({ path: { escrowId: created.data.escrowId } }); } catch (error) { if (error instanceof EscrowLedgerApiError) return error.code; }
  return verifyCallback('whsec', { 'x-timestamp': '1', 'x-signature': 'x' }, '{}').status;
}
`;

/** What the merchant runs with plain node: a create against a local stand-in for the service, and a callback verified. */
const PLAIN_NODE = `
const { createServer } = require('node:http');
const { EscrowLedger, signCallback, verifyCallback, NotFoundError } = require('@escrow-ledger/client');
const seen = [];
const server = createServer((req, res) => {
  seen.push({ method: req.method, url: req.url, key: req.headers['idempotency-key'], secret: req.headers['x-api-secret'] });
  if (req.method === 'GET') return res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: 'error', message: 'No escrow', error: { code: 'ESCROW_NOT_FOUND', message: 'No escrow' } }));
  res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'success', message: 'Created', data: { escrowId: 'esc_1' } }));
});
server.listen(0, '127.0.0.1', async () => {
  const ledger = new EscrowLedger({ baseUrl: 'http://127.0.0.1:' + server.address().port, apiSecret: 'sk_test' });
  const created = await ledger.postEscrowOrder({ body: { orderId: 'o-1' } });
  const refused = await ledger.getEscrowByEscrowId({ path: { escrowId: 'esc_9' } }).catch((error) => (error instanceof NotFoundError ? error.code : 'other'));
  const body = JSON.stringify({ billRefNo: 'o-1', status: 'PAID', amount: 1, deliveryId: 'dlv_1' });
  const timestamp = String(Date.now());
  const payload = verifyCallback('whsec_test', { 'x-timestamp': timestamp, 'x-signature': signCallback('whsec_test', timestamp, body) }, body);
  server.close();
  process.stdout.write(JSON.stringify({ escrowId: created.data.escrowId, refused, callback: payload.status, seen }));
});
`;

/**
 * What a merchant gets: the tarball `npm pack` makes (its prepack compiles to JavaScript with type
 * declarations, the receiver library's sources included), installed into an empty project without
 * the network (it depends on nothing), type-checked against from TypeScript and used from plain node.
 */
it('packs into a tarball that installs offline, type-checks a program and calls the service from plain node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'escrow-ledger-client-'));
  try {
    execFileSync('npm', ['pack', '--pack-destination', scratch], { cwd: PACKAGE_DIR, stdio: 'pipe' });
    const [tarball] = readdirSync(scratch).filter((file) => file.endsWith('.tgz'));
    const listing = execFileSync('tar', ['tzf', join(scratch, tarball)], { encoding: 'utf8' }).split('\n');
    expect(listing).toEqual(
      expect.arrayContaining(['package/dist/client/src/index.js', 'package/dist/client/src/index.d.ts', 'package/dist/callback-receiver/src/index.js', 'package/README.md', 'package/package.json']),
    );
    expect(listing.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(listing.filter((file) => file.includes('spec') || file.includes('testing'))).toEqual([]);

    const project = join(scratch, 'merchant');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'merchant', private: true }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, tarball)], { cwd: project, stdio: 'pipe' });

    writeFileSync(join(project, 'use.ts'), TYPED_USE);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'node16', moduleResolution: 'node16', lib: ['ES2022'], types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
        files: ['use.ts'],
      }),
    );
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, stdio: 'pipe' });

    const output = JSON.parse(execFileSync(process.execPath, ['-e', PLAIN_NODE], { cwd: project, encoding: 'utf8' }));
    expect(output).toMatchObject({ escrowId: 'esc_1', refused: 'ESCROW_NOT_FOUND', callback: 'PAID' });
    expect(output.seen).toEqual([
      { method: 'POST', url: '/v1/trdp/escrow/order', key: expect.stringMatching(/^[0-9a-f-]{36}$/), secret: 'sk_test' },
      { method: 'GET', url: '/v1/trdp/escrow/esc_9', secret: 'sk_test' },
    ]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
