#!/usr/bin/env node
// A PostgreSQL pair under pg_auto_failover on local ports, from Debian's packages
// (pg-auto-failover-cli, postgresql-15-auto-failover): a monitor and two nodes, the standby synchronous.
//   npm run ha -- up        start the monitor and the nodes; prints the multi-host DATABASE_URL
//   npm run ha -- failover  kill -9 the primary (its keeper and its PostgreSQL), time the standby's
//                           promotion, start the killed node again (it rejoins as the standby)
//   npm run ha -- down      stop everything and remove the data
// pg_autoctl refuses to run as root: as root, it runs as the postgres user.
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, mkdirSync, rmSync, openSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = process.env.HA_DIR ?? '/tmp/escrow-ha';
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const MONITOR_PORT = Number(process.env.HA_MONITOR_PORT ?? 55400);
const NODES = [1, 2].map((n) => ({ name: `node${n}`, port: MONITOR_PORT + n, pgdata: join(ROOT, `node${n}`) }));
const MONITOR = { name: 'monitor', port: MONITOR_PORT, pgdata: join(ROOT, 'monitor') };
const MONITOR_URL = `postgres://autoctl_node@127.0.0.1:${MONITOR_PORT}/pg_auto_failover`;
const asRoot = process.getuid?.() === 0;

// The monitor's defaults notice a dead primary after about 20-30 s; these take it to a few seconds
// (https://pg-auto-failover.readthedocs.io/en/main/operations.html#configuring-the-monitor).
const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '1',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '3000',
};

function env(name) {
  return { ...process.env, PATH: `${BIN}:${process.env.PATH}`, XDG_CONFIG_HOME: join(ROOT, 'config', name), XDG_DATA_HOME: join(ROOT, 'state', name) };
}

function command(args) {
  return asRoot ? ['su', ['postgres', '-s', '/bin/sh', '-c', args.map((a) => `'${a}'`).join(' ')]] : [args[0], args.slice(1)];
}

function run(name, args) {
  const [file, rest] = command(args);
  return execFileSync(file, rest, { env: env(name), cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function startKeeper(node) {
  const [file, rest] = command(['pg_autoctl', 'run', '--pgdata', node.pgdata]);
  const log = openSync(join(ROOT, `${node.name}.log`), 'a');
  const child = spawn(file, rest, { env: env(node.name), cwd: ROOT, detached: true, stdio: ['ignore', log, log] });
  child.unref();
}

function psql(port, sql) {
  return execFileSync(join(BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-Atc', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, check) {
  for (;;) {
    try {
      const value = check();
      if (value) return value;
    } catch {
      // not yet
    }
    await sleep(100);
  }
}

function primaryPort() {
  return NODES.find((node) => {
    try {
      return psql(node.port, 'SELECT pg_is_in_recovery()') === 'f';
    } catch {
      return false;
    }
  })?.port;
}

async function up() {
  mkdirSync(ROOT, { recursive: true });
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', ROOT]);
  if (!existsSync(MONITOR.pgdata)) {
    run('monitor', ['pg_autoctl', 'create', 'monitor', '--pgdata', MONITOR.pgdata, '--pgport', String(MONITOR.port), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl']);
  }
  startKeeper(MONITOR);
  await until('the monitor', () => psql(MONITOR.port, 'SELECT 1') === '1');
  for (const [name, value] of Object.entries(MONITOR_SETTINGS)) psql(MONITOR.port, `ALTER SYSTEM SET ${name} = '${value}'`);
  psql(MONITOR.port, 'SELECT pg_reload_conf()');
  for (const node of NODES) {
    if (!existsSync(node.pgdata)) {
      const [file, rest] = command(['pg_autoctl', 'create', 'postgres', '--pgdata', node.pgdata, '--pgport', String(node.port), '--hostname', '127.0.0.1', '--name', node.name, '--auth', 'trust', '--no-ssl', '--monitor', MONITOR_URL, '--run']);
      const log = openSync(join(ROOT, `${node.name}.log`), 'a');
      spawn(file, rest, { env: env(node.name), cwd: ROOT, detached: true, stdio: ['ignore', log, log] }).unref();
      // The second node is created once the first is primary: it then clones it as its standby.
      await until(`${node.name} to run`, () => psql(node.port, 'SELECT 1') === '1');
      if (node === NODES[0]) await until('the first primary', () => primaryPort() === node.port);
    } else {
      startKeeper(node);
    }
  }
  await until('a synchronous standby', () => {
    const port = primaryPort();
    return port && psql(port, "SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')") === '1';
  });
  console.log(`primary on ${primaryPort()}, synchronous standby streaming`);
  console.log(`DATABASE_URL=postgres://postgres@${NODES.map((n) => `127.0.0.1:${n.port}`).join(',')}/postgres?target_session_attrs=read-write`);
}

function keeperPids(node) {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(node.pgdata) || line.includes(`-p ${node.port}`))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((pid) => pid && pid !== process.pid);
}

function postmasterPid(node) {
  const file = join(node.pgdata, 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

function kill(node) {
  const pids = [...keeperPids(node), postmasterPid(node)].filter(Boolean);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // The postmaster's children (backends, the WAL sender) outlive it for a moment; kill them too.
  try {
    execFileSync('pkill', ['-9', '-P', String(postmasterPid(node) ?? 0)]);
  } catch {
    // none left
  }
}

async function failover() {
  const port = await until('a primary', primaryPort);
  const node = NODES.find((n) => n.port === port);
  const killedAt = Date.now();
  kill(node);
  const promoted = await until('the standby to be promoted', () => {
    const next = primaryPort();
    return next && next !== port ? next : undefined;
  });
  const window = Date.now() - killedAt;
  console.log(`killed the primary on ${port}; ${promoted} took writes ${(window / 1000).toFixed(1)} s later`);
  startKeeper(node);
  await until('the old primary to rejoin as a synchronous standby', () => psql(promoted, "SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')") === '1');
  console.log(`${node.name} rejoined as the synchronous standby of ${promoted}`);
  return window;
}

async function down() {
  // Twice: a keeper killed a moment after its PostgreSQL may have started it again meanwhile.
  for (const node of [...NODES, MONITOR]) kill(node);
  await sleep(1000);
  for (const node of [...NODES, MONITOR]) kill(node);
  rmSync(ROOT, { recursive: true, force: true });
  console.log('stopped and removed');
}

const action = process.argv[2];
const actions = { up, failover, down };
if (!actions[action]) {
  console.error('usage: npm run ha -- up|failover|down');
  process.exit(2);
}
Promise.resolve(actions[action]()).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
