#!/usr/bin/env node
// Some registries (mirrors) serve only the platform builds they need, so `npm install` writes a
// lockfile without the other platforms' optional packages, and `npm ci` then refuses it as out of
// sync. This adds the missing optional entries, marked with their platform, so npm ci skips them
// on every other machine exactly as it would with a lockfile written against the full registry.
// Run after `npm install` changes package-lock.json: node scripts/complete-lockfile.js
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = [['arm64'], ['x64'], ['ia32'], ['ppc64'], ['s390x'], ['riscv64'], ['loong64'], ['arm', 'gnueabihf', 'musleabihf', 'eabi']];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = OS.find((o) => tokens.includes(o));
  const cpu = CPU.find((aliases) => aliases.some((a) => tokens.includes(a)))?.[0];
  const libc = tokens.includes('musl') || tokens.includes('musleabihf') ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os || !cpu) continue;
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [cpu],
      ...(libc ? { libc: [libc] } : {}),
      license: entry.license,
      optional: true,
      os: [os],
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} optional platform entries\n`);
