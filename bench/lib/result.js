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

function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One row from the repeated runs of a scenario (`--repeat`): the run whose ratio is nearest the median
 * gives the figures, the ratio is the median itself, judged against the target again, and `spread`
 * says how far the runs went (their ratios in run order, min and max). Failed runs count as such.
 */
function repeatedResult(runs) {
  const measured = runs.filter((run) => !run.error);
  if (measured.length === 0) return runs[0];
  const ratios = measured.map((run) => run.ratio);
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = median(sorted);
  const ratio = middle > 0 && middle < 0.01 ? Number(middle.toPrecision(2)) : round(middle, 2);
  const nearest = measured.reduce((best, run) => (Math.abs(run.ratio - ratio) < Math.abs(best.ratio - ratio) ? run : best));
  const { comparison, value } = nearest.target;
  const failed = runs.length - measured.length;
  return {
    ...nearest,
    ratio,
    met: comparison === '>=' ? ratio >= value : ratio > 0 && ratio <= value,
    spread: { runs: runs.length, min: sorted[0], max: sorted[sorted.length - 1], ratios },
    notes: [...(failed > 0 ? [`${failed} of ${runs.length} runs failed`] : []), ...nearest.notes],
  };
}

module.exports = { lifecyclesPerSecond, repeatedResult, scenarioResult, round };
