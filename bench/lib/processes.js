'use strict';
/** Child processes of a bench run: the built service, the references and the load generators. */
const { spawn } = require('node:child_process');
const { createServer } = require('node:net');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** Starts `node <script>` with only the given environment (plus PATH), collecting its output. */
function spawnNode(script, env = {}, { args = [], nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, exited, output: () => output };
}

/** The built API or worker (`dist/apps/<app>`), in production mode. */
function spawnService(app, env, options) {
  return spawnNode(join(ROOT, 'dist', 'apps', app, 'src', 'main.js'), { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env }, options);
}

async function waitFor(check, what, timeoutMs = 60_000, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

async function waitForOutput(proc, text, timeoutMs = 60_000) {
  await waitFor(
    () => {
      if (proc.child.exitCode !== null) throw new Error(`process exited (${proc.child.exitCode}) before printing "${text}":\n${proc.output()}`);
      return proc.output().includes(text);
    },
    `"${text}" from process ${proc.child.pid}:\n${proc.output()}`,
    timeoutMs,
  );
}

async function waitForHttp(url, proc, timeoutMs = 60_000) {
  await waitFor(
    async () => {
      if (proc && proc.child.exitCode !== null) throw new Error(`process exited (${proc.child.exitCode}) before answering at ${url}:\n${proc.output()}`);
      const response = await fetch(url).catch(() => undefined);
      return response !== undefined && response.status < 500;
    },
    url,
    timeoutMs,
  );
}

/** SIGTERM, then SIGKILL if it has not exited within a few seconds. */
async function stop(proc, graceMs = 5000) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a load script to completion and parses the JSON it prints last. */
async function runJson(script, input, env = {}) {
  const proc = spawnNode(script, { ...process.env, ...env }, { args: [JSON.stringify(input)] });
  const code = await proc.exited;
  const lines = proc.output().trim().split('\n');
  if (code !== 0) throw new Error(`${script} exited ${code}:\n${proc.output()}`);
  return JSON.parse(lines[lines.length - 1]);
}

module.exports = { ROOT, spawnNode, spawnService, waitFor, waitForOutput, waitForHttp, stop, freePort, runJson };
