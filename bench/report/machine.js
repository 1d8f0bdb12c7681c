'use strict';
const { readFileSync } = require('node:fs');
const { cpus } = require('node:os');
const { serverVersion } = require('../lib/infrastructure');

/** What the figures were measured on: they only mean something next to it. */
async function describeMachine() {
  const cpuinfo = (() => {
    try {
      return readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      return '';
    }
  })();
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  return {
    cpus: cpus().length,
    cpuModel: model,
    node: process.version,
    postgres: (await serverVersion()).split(' ')[0],
  };
}

module.exports = { describeMachine };
