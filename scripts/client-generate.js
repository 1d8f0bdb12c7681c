#!/usr/bin/env node
// `npm run client:generate`: builds the service, serves it on an embedded database in a scratch
// folder, writes the OpenAPI document it serves at /docs-json to libs/client/openapi.json, and
// generates the typed client's types, SDK and fetch runtime from it into libs/client/src/generated
// with @hey-api/openapi-ts. Both are committed; test/e2e/client-types.spec.ts fails when either
// differs from what this would write now.
//
// `--from-snapshot --output DIR` generates from the committed document into DIR instead, and touches
// nothing else (the test compares DIR with the committed generated code).
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const CLIENT = join(ROOT, 'libs', 'client');
const DOCUMENT = join(CLIENT, 'openapi.json');
const GENERATED = join(CLIENT, 'src', 'generated');

/** The document as the built service serves it, with no data and no demo merchant. */
async function servedDocument() {
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build', 'api'], { cwd: ROOT, stdio: 'inherit' });
  const { loadConfig } = require(join(ROOT, 'dist', 'libs', 'config', 'src'));
  const { createApp } = require(join(ROOT, 'dist', 'apps', 'api', 'src', 'app.factory'));
  const dataDir = mkdtempSync(join(tmpdir(), 'client-generate-'));
  try {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DEMO_MERCHANT: 'false', DATA_DIR: dataDir, SECRETS_KEY: '' });
    const app = await createApp(config);
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address();
      const response = await fetch(`http://127.0.0.1:${port}/docs-json`);
      if (!response.ok) throw new Error(`/docs-json answered ${response.status}`);
      return await response.json();
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Method names follow the route (`POST /v1/trdp/escrow/{escrowId}/release` is
 * `postEscrowByEscrowIdRelease`), without the version and the merchant API's `trdp` prefix: names
 * stay the same whatever a controller is called, and a route added later gets its method on the
 * next generation without anyone choosing a name.
 */
const methodName = (name) => name.replace(/^(get|post|put|patch|delete)V1(Trdp)?/, '$1');

/**
 * Operations that only refuse (the audit API's writes, stated so that their 405 is in the document)
 * are no method of the client: a call could only throw.
 */
function refusalsOnly(document) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !Object.keys(operation.responses ?? {}).some((status) => status.startsWith('2')))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

async function generate(input, output) {
  const { createClient } = await import('@hey-api/openapi-ts');
  const document = JSON.parse(readFileSync(input, 'utf8'));
  await createClient({
    input,
    parser: { filters: { operations: { exclude: refusalsOnly(document) } } },
    output: { path: output, module: { extension: null }, tsConfigPath: null },
    logs: { level: 'silent', file: false },
    plugins: [
      '@hey-api/typescript',
      // Refusals throw (libs/client/src/escrow-ledger.ts turns them into typed exceptions).
      { name: '@hey-api/client-fetch', throwOnError: true },
      // One class with a method per route; a call resolves to the response body (the envelope).
      { name: '@hey-api/sdk', responseStyle: 'data', operations: { strategy: 'single', containerName: 'EscrowLedgerApi', methods: 'instance', nesting: 'id', methodName } },
    ],
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--from-snapshot') {
    const output = args[args.indexOf('--output') + 1];
    if (!args.includes('--output') || !output) throw new Error('--from-snapshot needs --output DIR');
    await generate(DOCUMENT, resolve(output));
    return;
  }
  writeFileSync(DOCUMENT, `${JSON.stringify(await servedDocument(), null, 2)}\n`);
  rmSync(GENERATED, { recursive: true, force: true });
  await generate(DOCUMENT, GENERATED);
  process.stdout.write(`Wrote ${DOCUMENT} and ${GENERATED}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
