#!/usr/bin/env node
// A PostgreSQL pair under pg_auto_failover on local ports, from Debian's packages
// (pg-auto-failover-cli, postgresql-15-auto-failover): a monitor and two nodes, the standby synchronous.
//   npm run ha -- up        start the monitor and the nodes; prints the multi-host DATABASE_URL
//   npm run ha -- failover  kill -9 the primary (its keeper and its PostgreSQL), time the standby's
//                           promotion, start the killed node again (it rejoins as the standby)
//   npm run ha -- down      stop everything and remove the data
// pg_autoctl refuses to run as root: as root, it runs as the postgres user.
// The chaos run's --failover and test/e2e/failover.spec.ts drive a cluster of their own through
// haCluster() (chaos/src/ha-cluster.ts), in a directory and on ports of their own.
const { execFile, execFileSync, spawn } = require('node:child_process');
const { existsSync, mkdirSync, rmSync, openSync, readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { promisify } = require('node:util');

// Debian's newest PostgreSQL, the one .ci/run installs pg_auto_failover's extension for.
const BIN = process.env.PG_BIN ?? join('/usr/lib/postgresql', (existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : ['15']).sort((a, b) => Number(a) - Number(b)).at(-1), 'bin');
const asRoot = process.getuid?.() === 0;
const execFileAsync = promisify(execFile);

// The monitor's defaults notice a dead primary after about 20-30 s; these take it to a few seconds
// (https://pg-auto-failover.readthedocs.io/en/main/operations.html#configuring-the-monitor).
const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '1',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '3000',
};

/** How long a kill waits for a promotion before it counts as one the monitor did not make (see failover()). */
const NO_PROMOTION_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` (which may throw: not yet) until it answers something truthy, or until `deadlineMs` has
 * passed (then undefined). Every 30 s it calls `waiting` with how long it has waited, so a run that cannot
 * go on says what it waits for instead of going quiet.
 */
async function until(check, { waiting, deadlineMs = Number.POSITIVE_INFINITY } = {}) {
  const started = Date.now();
  let told = started;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch {
      // not yet
    }
    if (Date.now() - started >= deadlineMs) return undefined;
    if (waiting && Date.now() - told >= 30_000) {
      told = Date.now();
      await waiting(told - started);
    }
    await sleep(100);
  }
}

function command(args) {
  return asRoot ? ['su', ['postgres', '-s', '/bin/sh', '-c', args.map((a) => `'${a}'`).join(' ')]] : [args[0], args.slice(1)];
}

/**
 * One cluster: its data under `dir`, the monitor on `monitorPort` and the nodes on the next two ports.
 * Every wait is asynchronous, so a process that drives a workload meanwhile (the chaos run) keeps serving it.
 */
function haCluster({ dir = process.env.HA_DIR ?? '/tmp/escrow-ha', monitorPort = Number(process.env.HA_MONITOR_PORT ?? 55400), log = console.log } = {}) {
  const nodes = [1, 2].map((n) => ({ name: `node${n}`, port: monitorPort + n, pgdata: join(dir, `node${n}`) }));
  const monitor = { name: 'monitor', port: monitorPort, pgdata: join(dir, 'monitor') };
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover`;
  const databaseUrl = `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/postgres?target_session_attrs=read-write`;

  function env(name) {
    return { ...process.env, PATH: `${BIN}:${process.env.PATH}`, XDG_CONFIG_HOME: join(dir, 'config', name), XDG_DATA_HOME: join(dir, 'state', name) };
  }

  function create(name, args) {
    const [file, rest] = command(args);
    return execFileSync(file, rest, { env: env(name), cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  function spawnKeeper(node, args) {
    const [file, rest] = command(args);
    const out = openSync(join(dir, `${node.name}.log`), 'a');
    spawn(file, rest, { env: env(node.name), cwd: dir, detached: true, stdio: ['ignore', out, out] }).unref();
  }

  /** The monitor's view of the nodes, for a wait that goes on: `node1 primary/primary, node2 catchingup/secondary unhealthy`. */
  const monitorView = () =>
    psql(monitor.port, "SELECT string_agg(nodename || ' ' || reportedstate || '/' || goalstate || CASE WHEN health = 1 THEN '' ELSE ' unhealthy' END, ', ' ORDER BY nodeid) FROM pgautofailover.node", 'pg_auto_failover').catch(
      (error) => `unreachable (${error.message.trim()})`,
    );

  /** `until`, saying every 30 s what it waits for and what the monitor sees. */
  const waitFor = (what, check, deadlineMs) =>
    until(check, { deadlineMs, waiting: async (ms) => log(`still waiting for ${what} after ${Math.round(ms / 1000)} s; the monitor: ${await monitorView()}`) });

  const startKeeper = (node) => spawnKeeper(node, ['pg_autoctl', 'run', '--pgdata', node.pgdata]);

  async function psql(port, sql, database = 'postgres') {
    const { stdout } = await execFileAsync(join(BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-Atc', sql], { encoding: 'utf8' });
    return stdout.trim();
  }

  async function primaryPort() {
    const roles = await Promise.all(nodes.map((node) => psql(node.port, 'SELECT pg_is_in_recovery()').catch(() => undefined)));
    return nodes.find((_, i) => roles[i] === 'f')?.port;
  }

  const syncStandbys = async (port) => Number(await psql(port, "SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')"));

  /**
   * The monitor has every node at its goal, one primary and one secondary. A standby streaming in sync is
   * not enough: until the monitor has moved the primary from `wait_primary` to `primary` it will not
   * promote the standby, so a kill in that window leaves the cluster without a primary until the killed
   * node comes back.
   */
  const settledAt = async () =>
    (await psql(monitor.port, "SELECT count(*) FILTER (WHERE reportedstate = 'primary' AND goalstate = 'primary') || ',' || count(*) FILTER (WHERE reportedstate = 'secondary' AND goalstate = 'secondary') FROM pgautofailover.node", 'pg_auto_failover')) === '1,1';

  /** A primary with its synchronous standby, the monitor having both at their goals: the only state a kill is a failover from. */
  const settled = async () => {
    const port = await primaryPort();
    return port && (await syncStandbys(port)) === 1 && (await settledAt());
  };

  /** Each process of the node, with its process group: the keeper's children rename themselves (`pg_autoctl: start/stop postgres`) and only their group names them. */
  function processes(node) {
    const out = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
    return out.split('\n').flatMap((line) => {
      const [pid, pgid, ...args] = line.trim().split(/\s+/);
      const text = args.join(' ');
      return text.includes(node.pgdata) || text.includes(`-p ${node.port} `) ? [{ pid: Number(pid), pgid: Number(pgid) }] : [];
    });
  }

  function postmasterPid(node) {
    const file = join(node.pgdata, 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
  }

  /**
   * kill -9 of the node's keeper and PostgreSQL. Every process group of theirs goes at once: a keeper's
   * `start/stop postgres` child that outlived its parent would start the killed primary again, and two
   * primaries would then take writes until the monitor's demote timeout.
   */
  function kill(node) {
    const own = Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim());
    const postmaster = postmasterPid(node);
    const found = processes(node);
    for (const target of [...new Set(found.map((p) => -p.pgid).filter((group) => group !== -own)), ...found.map((p) => p.pid), postmaster]) {
      if (!target || target === process.pid) continue;
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // The postmaster's children (backends, the WAL sender) have groups of their own and outlive it for a moment.
    try {
      execFileSync('pkill', ['-9', '-P', String(postmaster ?? 0)]);
    } catch {
      // none left
    }
  }

  /** Starts the cluster (creating it the first time), once the primary has a synchronous standby; returns the multi-host DATABASE_URL. */
  async function up() {
    mkdirSync(dir, { recursive: true });
    if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    if (!existsSync(monitor.pgdata)) {
      create('monitor', ['pg_autoctl', 'create', 'monitor', '--pgdata', monitor.pgdata, '--pgport', String(monitor.port), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl']);
    }
    if (processes(monitor).length === 0) startKeeper(monitor);
    await waitFor('the monitor to take connections', async () => (await psql(monitor.port, 'SELECT 1')) === '1');
    for (const [name, value] of Object.entries(MONITOR_SETTINGS)) await psql(monitor.port, `ALTER SYSTEM SET ${name} = '${value}'`);
    await psql(monitor.port, 'SELECT pg_reload_conf()');
    for (const node of nodes) {
      if (!existsSync(node.pgdata)) {
        spawnKeeper(node, ['pg_autoctl', 'create', 'postgres', '--pgdata', node.pgdata, '--pgport', String(node.port), '--hostname', '127.0.0.1', '--name', node.name, '--auth', 'trust', '--no-ssl', '--monitor', monitorUrl, '--run']);
        // The second node is created once the first is primary: it then clones it as its standby.
        await waitFor(`${node.name} to take connections`, async () => (await psql(node.port, 'SELECT 1')) === '1');
        if (node === nodes[0]) await waitFor(`${node.name} to be the primary`, async () => (await primaryPort()) === node.port);
      } else if (processes(node).length === 0) {
        startKeeper(node);
      }
    }
    await waitFor('a primary with its synchronous standby', settled);
    log(`primary on ${await primaryPort()}, synchronous standby streaming`);
    log(`DATABASE_URL=${databaseUrl}`);
    return databaseUrl;
  }

  /**
   * kill -9 of the primary's keeper and PostgreSQL once the pair is settled; waits for the standby's
   * promotion, starts the killed node again and waits until it is the new primary's synchronous standby.
   * The monitor promotes only a standby it finds healthy: on a loaded machine it may have judged the
   * standby unhealthy a moment before the kill, and then no node takes writes until the killed one is back
   * (pg_auto_failover's design, not a fault of the service). So when nothing is promoted within
   * NO_PROMOTION_MS, the killed node is started again, as a supervisor would, and the kill repeated once
   * the pair has settled; the kills without a promotion are counted. Returns when each step happened (ms
   * since the epoch, `killedAt` the first kill's) and the ports before and after.
   */
  async function failover() {
    let killedAt;
    for (let killsWithoutPromotion = 0; ; killsWithoutPromotion++) {
      await waitFor('a primary with its synchronous standby before the kill', settled);
      const from = await primaryPort();
      const node = nodes.find((n) => n.port === from);
      const killAt = Date.now();
      killedAt ??= killAt;
      kill(node);
      const to = await waitFor(
        `a node other than ${from} to take writes`,
        async () => {
          const next = await primaryPort();
          return next && next !== from ? next : undefined;
        },
        NO_PROMOTION_MS,
      );
      if (to === undefined) {
        log(`no node took writes within ${NO_PROMOTION_MS / 1000} s of the kill of ${from} (the monitor: ${await monitorView()}); starting it again to kill it once the pair has settled`);
        startKeeper(node);
        continue;
      }
      const promotedAt = Date.now();
      log(`killed the primary on ${from}; ${to} took writes ${((promotedAt - killAt) / 1000).toFixed(1)} s later`);
      startKeeper(node);
      await waitFor(`${node.name} to rejoin as the synchronous standby of ${to}`, settled);
      const rejoinedAt = Date.now();
      log(`${node.name} rejoined as the synchronous standby of ${to}`);
      return { from, to, killedAt, promotedAt, rejoinedAt, killsWithoutPromotion };
    }
  }

  async function down() {
    // Twice: a keeper killed a moment after its PostgreSQL may have started it again meanwhile.
    for (const node of [...nodes, monitor]) kill(node);
    await sleep(1000);
    for (const node of [...nodes, monitor]) kill(node);
    rmSync(dir, { recursive: true, force: true });
    log('stopped and removed');
  }

  return { databaseUrl, up, failover, down, primaryPort };
}

module.exports = { haCluster };

if (require.main === module) {
  const cluster = haCluster();
  const action = process.argv[2];
  if (!['up', 'failover', 'down'].includes(action)) {
    console.error('usage: npm run ha -- up|failover|down');
    process.exit(2);
  }
  cluster[action]().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
