'use strict';
/**
 * CPU time per process, from /proc (Linux): what each of the service's processes spends per request
 * is steadier than throughput on a shared machine, and says where a scenario's time goes.
 */
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');

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

/** Starts counting for named processes; `perUnit(n)` gives each one's CPU ms per unit of work since. */
function cpuMeter(processes) {
  const start = Object.fromEntries(Object.entries(processes).map(([name, proc]) => [name, cpuMs(proc.child.pid)]));
  return {
    perUnit(units) {
      const result = {};
      for (const [name, proc] of Object.entries(processes)) {
        const now = cpuMs(proc.child.pid);
        if (now !== undefined && start[name] !== undefined && units > 0) result[name] = Math.round(((now - start[name]) / units) * 1000) / 1000;
      }
      return result;
    },
  };
}

/** "API 1.2 ms, projector 0.4 ms" for the report. */
function describeCpu(perRequest) {
  const parts = Object.entries(perRequest).map(([name, ms]) => `${name} ${ms} ms`);
  return parts.length > 0 ? `CPU per request: ${parts.join(', ')}` : undefined;
}

module.exports = { cpuMeter, describeCpu };
