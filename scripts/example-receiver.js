#!/usr/bin/env node
// `npm run example:receiver`: compiles examples/node-http-receiver.ts and runs it on RECEIVER_PORT (4000;
// not PORT, which is the service's) with the demo merchant's webhook secret, read from DATA_DIR (./data)
// where `npm start` keeps it, so the banner's escrow can be followed from create to release without
// copying a secret. Started before the service has written it, it waits for the file.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const dataDir = resolve(process.env.DATA_DIR || join(root, 'data'));
const demoFile = join(dataDir, 'demo-merchant.json');
const port = process.env.RECEIVER_PORT || '4000';
const POLL_MS = 500;

/** The webhook secret to verify with: WEBHOOK_SECRET, or the demo merchant's once the service has written it. */
async function webhookSecret() {
  if (process.env.WEBHOOK_SECRET) return process.env.WEBHOOK_SECRET;
  if (!existsSync(demoFile)) process.stderr.write(`Waiting for the service to write the demo merchant to ${demoFile} (npm start), or set WEBHOOK_SECRET…\n`);
  while (!existsSync(demoFile)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  return JSON.parse(readFileSync(demoFile, 'utf8')).webhookSecret;
}

async function main() {
  const secret = await webhookSecret();
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'examples', 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  const receiver = spawn(process.execPath, [join(root, 'dist-examples', 'examples', 'node-http-receiver.js')], {
    cwd: root,
    env: { ...process.env, PORT: port, WEBHOOK_SECRET: secret },
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => receiver.kill(signal));
  receiver.on('exit', (code) => process.exit(code ?? 0));
}

void main();
