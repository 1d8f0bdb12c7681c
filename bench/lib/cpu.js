'use strict';
/**
 * CPU time per process, from /proc (Linux): what each of the service's processes and the PostgreSQL
 * backends serving them spend per request is steadier than throughput on a shared machine, and says
 * where a scenario's time goes.
 */
const { execFileSync } = require('node:child_process');
const { readdirSync, readFileSync, readlinkSync } = require('node:fs');
const { withClient } = require('./infrastructure');

let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU milliseconds the process has used, or undefined where /proc cannot tell. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** The local TCP ports of a process's sockets (Linux): its end of each connection it holds. */
function socketPorts(pid) {
  const inodes = new Set();
  let fds = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  for (const fd of fds) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]);
    } catch {
      // Closed between the listing and the read.
    }
  }
  const ports = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && inodes.has(fields[9])) ports.push(Number.parseInt(fields[1].split(':')[1], 16));
    }
  }
  return ports;
}

/**
 * The PostgreSQL backends serving the processes' connections: those whose client port is one of
 * theirs (pg_stat_activity). Not the server's other backends (another run's, a test's on the same
 * server) nor its shared processes (WAL writer, checkpointer, autovacuum), which other work shares.
 */
async function backendsOf(pids) {
  const ports = [...new Set(pids.flatMap(socketPorts))];
  if (ports.length === 0) return [];
  const rows = await withClient(async (c) => (await c.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND client_port = ANY($1::int[])`, [ports])).rows);
  return rows.map((row) => row.pid);
}

/** CPU ms of the backends serving the processes' connections, by backend pid (none when the server is on another machine). */
async function backendsCpu(pids) {
  return new Map((await backendsOf(pids)).map((pid) => [pid, cpuMs(pid)]).filter(([, ms]) => ms !== undefined));
}

/**
 * Starts counting for named processes (and, with `postgres`, the PostgreSQL backends serving their
 * connections, sampled now and again at the end: a backend the pool opened meanwhile counts from its
 * start); `perUnit(n)` gives each one's CPU ms per unit of work since.
 */
async function cpuMeter(processes, options = {}) {
  const pids = Object.values(processes).map((proc) => proc.child.pid);
  const start = Object.fromEntries(Object.entries(processes).map(([name, proc]) => [name, cpuMs(proc.child.pid)]));
  const postgresStart = options.postgres ? await backendsCpu(pids) : undefined;
  const round = (ms, units) => Math.round((ms / units) * 1000) / 1000;
  return {
    async perUnit(units) {
      const result = {};
      for (const [name, proc] of Object.entries(processes)) {
        const now = cpuMs(proc.child.pid);
        if (now !== undefined && start[name] !== undefined && units > 0) result[name] = round(now - start[name], units);
      }
      if (postgresStart && units > 0) {
        const now = await backendsCpu(pids);
        if (now.size > 0) {
          // A backend that ended meanwhile took its time with it; one that started counts from zero.
          let spent = 0;
          for (const [pid, ms] of now) spent += ms - (postgresStart.get(pid) ?? 0);
          result.postgres = round(spent, units);
        }
      }
      return result;
    },
  };
}

/** "CPU per request: api 1.2 ms, projector 0.4 ms; reference: server 0.1 ms, postgres 0.2 ms" for the report. */
function describeCpu(perUnit, reference = {}, unit = 'request') {
  const list = (figures) => Object.entries(figures).map(([name, ms]) => `${name} ${ms} ms`).join(', ');
  if (Object.keys(perUnit).length === 0) return undefined;
  return `CPU per ${unit}: ${list(perUnit)}${Object.keys(reference).length > 0 ? `; reference: ${list(reference)}` : ''}`;
}

module.exports = { cpuMs, cpuMeter, describeCpu };
