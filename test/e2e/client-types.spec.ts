/**
 * The typed client's types match the running service (issue 32, item 2): the OpenAPI document
 * committed in libs/client/openapi.json is the one the service serves at /docs-json, and the code in
 * libs/client/src/generated is what @hey-api/openapi-ts makes of it. When a route changes, this
 * fails until `npm run client:generate` has written both again.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { type RunningApp, startApp } from '../support/app';

const ROOT = join(__dirname, '..', '..');
const CLIENT = join(ROOT, 'libs', 'client');
const REGENERATE = 'the committed client is stale: run `npm run client:generate` and commit libs/client';

/** The JSON paths where two documents differ (at most `limit`), e.g. `paths./v1/trdp/escrow/order.post.responses.201`. */
function differences(served: unknown, committed: unknown, at = '', limit = 20): string[] {
  if (JSON.stringify(served) === JSON.stringify(committed)) return [];
  if (typeof served !== 'object' || typeof committed !== 'object' || served === null || committed === null || Array.isArray(served) !== Array.isArray(committed)) return [at || '(root)'];
  const keys = [...new Set([...Object.keys(served), ...Object.keys(committed)])];
  const found: string[] = [];
  for (const key of keys) {
    if (found.length >= limit) break;
    found.push(...differences((served as Record<string, unknown>)[key], (committed as Record<string, unknown>)[key], at ? `${at}.${key}` : key, limit - found.length));
  }
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the typed client matches the running service', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp();
  });
  afterAll(async () => {
    await running?.close();
  });

  it('commits the document the service serves at /docs-json', async () => {
    const served = await (await fetch(`${running.baseUrl}/docs-json`)).json();
    const committed = JSON.parse(await readFile(join(CLIENT, 'openapi.json'), 'utf8'));
    const changed = differences(served, committed);
    if (changed.length > 0) throw new Error(`${REGENERATE}; the served document differs at:\n  ${changed.join('\n  ')}`);
  });

  it('commits the code the generator makes of that document', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'client-generated-'));
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'client-generate.js'), '--from-snapshot', '--output', fresh], { cwd: ROOT });
      const committedDir = join(CLIENT, 'src', 'generated');
      const [generatedFiles, committedFiles] = [await filesUnder(fresh), await filesUnder(committedDir)];
      expect({ files: committedFiles, hint: REGENERATE }).toEqual({ files: generatedFiles, hint: REGENERATE });
      const stale: string[] = [];
      for (const file of generatedFiles) {
        if ((await readFile(join(fresh, file), 'utf8')) !== (await readFile(join(committedDir, file), 'utf8'))) stale.push(file);
      }
      if (stale.length > 0) throw new Error(`${REGENERATE}; these generated files differ: ${stale.join(', ')}`);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('names where a document differs (what the first test reports)', () => {
    const document = { paths: { '/v1/trdp/escrow/order': { post: { responses: { 201: { description: 'Created' } } } } } };
    const changed = structuredClone(document) as any;
    changed.paths['/v1/trdp/escrow/order'].post.responses[201].description = 'Escrow order created';
    changed.paths['/v1/trdp/events'] = { get: {} };
    expect(differences(changed, document)).toEqual(['paths./v1/trdp/escrow/order.post.responses.201.description', 'paths./v1/trdp/events']);
    expect(differences(document, structuredClone(document))).toEqual([]);
  });
});
