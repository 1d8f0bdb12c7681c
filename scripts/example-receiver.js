#!/usr/bin/env node
// `npm run example:receiver`: compiles examples/node-http-receiver.ts and runs it on PORT (4000) with
// the demo merchant's webhook secret, read from DATA_DIR (./data) where `npm start` keeps it, so the
// banner's escrow can be followed from create to release without copying a secret.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const dataDir = resolve(process.env.DATA_DIR || join(root, 'data'));
let secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  const demoFile = join(dataDir, 'demo-merchant.json');
  if (!existsSync(demoFile)) {
    process.stderr.write(`No demo merchant in ${dataDir}: start the service once (npm start), or set WEBHOOK_SECRET.\n`);
    process.exit(1);
  }
  secret = JSON.parse(readFileSync(demoFile, 'utf8')).webhookSecret;
}
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'examples', 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
const receiver = spawn(process.execPath, [join(root, 'dist-examples', 'examples', 'node-http-receiver.js')], {
  cwd: root,
  env: { ...process.env, WEBHOOK_SECRET: secret },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => receiver.kill(signal));
receiver.on('exit', (code) => process.exit(code ?? 0));
