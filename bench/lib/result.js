'use strict';
/** One row of the report: our figure, the reference measured in the same run, their ratio and its target. */

function round(value, digits = 2) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function side(name, measured) {
  return {
    name,
    value: round(measured.value, 1),
    p50: measured.p50 === undefined ? null : round(measured.p50, 1),
    p99: measured.p99 === undefined ? null : round(measured.p99, 1),
  };
}

/**
 * `compare: 'higher'`: ratio = ours / reference, met when ratio >= target (throughput).
 * `compare: 'lower'`: ratio = ours / reference, met when ratio <= target (a latency that must not grow).
 * `cpuPerRequest`: CPU ms per request of each of our processes (by role) and of the local PostgreSQL
 * server, where measured; `referenceCpuPerRequest`: the same for the reference's server.
 * `peer`: for a row against a peer (bench/peers/), which one, its 2xx answers and the rows it wrote.
 */
function scenarioResult({ id, title, unit, ours, reference, target, stretch, compare = 'higher', failures = 0, notes = [], cpuPerRequest, referenceCpuPerRequest, peer }) {
  const ratio = reference.measured.value > 0 ? ours.measured.value / reference.measured.value : 0;
  const met = compare === 'higher' ? ratio >= target : ratio > 0 && ratio <= target;
  return {
    id,
    title,
    unit,
    ours: side(ours.name, ours.measured),
    reference: side(reference.name, reference.measured),
    // Two decimals, but never a measured ratio rounded away to 0 (a smoke run's tiny counts give tiny ratios).
    ratio: ratio > 0 && ratio < 0.01 ? Number(ratio.toPrecision(2)) : round(ratio, 2),
    target: { comparison: compare === 'higher' ? '>=' : '<=', value: target, ...(stretch ? { stretch } : {}) },
    met,
    failures,
    notes,
    ...(cpuPerRequest ? { cpuPerRequest } : {}),
    ...(referenceCpuPerRequest ? { referenceCpuPerRequest } : {}),
    ...(peer ? { peer } : {}),
  };
}

/** Whole lifecycles per second of a load whose lifecycles make `requestsPerLifecycle` requests each: only answered ones count. */
function lifecyclesPerSecond(load, requestsPerLifecycle) {
  return (load.perSecond * ((load.requests - load.non2xx) / Math.max(1, load.requests))) / requestsPerLifecycle;
}

module.exports = { lifecyclesPerSecond, scenarioResult, round };
