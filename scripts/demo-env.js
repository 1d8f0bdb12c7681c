#!/usr/bin/env node
// `eval "$(node scripts/demo-env.js)"`: the demo merchant's credentials that `npm start` keeps in
// DATA_DIR (./data), as shell variables for the README's first escrow: BASE, API_SECRET, MERCHANT_ID
// and AUDITOR_KEY. BASE follows PUBLIC_BASE_URL, or PORT, as the service does.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const dataDir = resolve(process.env.DATA_DIR || 'data');
const file = join(dataDir, 'demo-merchant.json');
if (!existsSync(file)) {
  process.stderr.write(`No demo merchant in ${dataDir}: start the service once with npm start.\n`);
  process.exit(1);
}
const demo = JSON.parse(readFileSync(file, 'utf8'));
const base = (process.env.PUBLIC_BASE_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '');
const quoted = (value) => `'${String(value).replace(/'/g, `'\\''`)}'`;
const variables = { BASE: base, API_SECRET: demo.apiSecret, MERCHANT_ID: demo.merchantId, AUDITOR_KEY: demo.auditorKey };
process.stdout.write(`export ${Object.entries(variables).map(([name, value]) => `${name}=${quoted(value)}`).join(' ')}\n`);
