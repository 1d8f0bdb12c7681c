'use strict';
/**
 * CPU time per process, from /proc (Linux): what each of the service's processes spends per request
 * is steadier than throughput on a shared machine, and says where a scenario's time goes.
 */
const { execFileSync } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');

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

/**
 * The processes of a PostgreSQL server on this machine (every backend, the WAL writer, the
 * checkpointer): none when the database is elsewhere, and then no "postgres" figure is reported.
 */
function postgresPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

/** CPU ms of the local PostgreSQL server's processes, by pid. */
function postgresCpu() {
  return new Map(postgresPids().map((pid) => [pid, cpuMs(pid) ?? 0]));
}

/**
 * Starts counting for named processes (and, with `postgres`, the local PostgreSQL server, whose
 * work for this load is the part its backends spent meanwhile); `perUnit(n)` gives each one's CPU ms
 * per unit of work since. PostgreSQL's figure includes whatever else used the server meanwhile.
 */
function cpuMeter(processes, options = {}) {
  const start = Object.fromEntries(Object.entries(processes).map(([name, proc]) => [name, cpuMs(proc.child.pid)]));
  const postgresStart = options.postgres ? postgresCpu() : undefined;
  const round = (ms, units) => Math.round((ms / units) * 1000) / 1000;
  return {
    perUnit(units) {
      const result = {};
      for (const [name, proc] of Object.entries(processes)) {
        const now = cpuMs(proc.child.pid);
        if (now !== undefined && start[name] !== undefined && units > 0) result[name] = round(now - start[name], units);
      }
      if (postgresStart && units > 0) {
        const now = postgresCpu();
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
