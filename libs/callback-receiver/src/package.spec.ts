import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PACKAGE_DIR = resolve(__dirname, '..');

/**
 * What a merchant gets: the tarball `npm pack` makes (its prepack compiles to JavaScript with type
 * declarations), installed into an empty project without the network (it depends on nothing), and
 * used from plain node.
 */
it('packs into a tarball that installs offline and verifies a callback from plain node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'callback-receiver-'));
  try {
    execFileSync('npm', ['pack', '--pack-destination', scratch], { cwd: PACKAGE_DIR, stdio: 'pipe' });
    const [tarball] = readdirSync(scratch).filter((file) => file.endsWith('.tgz'));
    const listing = execFileSync('tar', ['tzf', join(scratch, tarball)], { encoding: 'utf8' }).split('\n');
    expect(listing).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/README.md', 'package/package.json']));
    expect(listing.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);

    const project = join(scratch, 'merchant');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'merchant', private: true }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, tarball)], { cwd: project, stdio: 'pipe' });
    const script = `
      const { verifyCallback, signCallback, InvalidSignatureError } = require('@escrow-ledger/callback-receiver');
      const body = JSON.stringify({ billRefNo: 'ORDER-1', status: 'PAID', amount: 100.5, deliveryId: 'dlv_1' });
      const timestamp = String(Date.now());
      const headers = { 'x-timestamp': timestamp, 'x-signature': signCallback('whsec_test', timestamp, body) };
      const payload = verifyCallback('whsec_test', headers, body);
      let refused = '';
      try { verifyCallback('whsec_other', headers, body); } catch (error) { refused = error instanceof InvalidSignatureError ? error.code : 'other'; }
      process.stdout.write(JSON.stringify({ status: payload.status, refused }));`;
    const output = execFileSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ status: 'PAID', refused: 'invalid_signature' });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
