'use strict';
/** The results as a Markdown table (printed, and pasted into docs/benchmarks.md). */

function number(value) {
  if (value === null || value === undefined) return '–';
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : String(value);
}

function latency(side) {
  return side.p50 === null ? '–' : `${number(side.p50)} / ${number(side.p99)}`;
}

function markdownTable(results) {
  const lines = [
    '| scenario | ours | reference | ratio | target | ours p50 / p99 ms | reference p50 / p99 ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    if (r.error) {
      lines.push(`| ${r.title} | failed: ${r.error.split('\n')[0]} | | | | | |`);
      continue;
    }
    const mark = r.met ? '✓' : '✗';
    const stretch = r.target.stretch ? ` (stretch ${r.target.stretch})` : '';
    // Repeated runs (--repeat): the median ratio, then the lowest and highest of the runs.
    const spread = r.spread ? ` (${r.spread.min}–${r.spread.max}, ${r.spread.runs} runs)` : '';
    lines.push(
      `| ${r.title} | ${number(r.ours.value)} ${r.unit} (${r.ours.name}) | ${number(r.reference.value)} ${r.unit} (${r.reference.name}) | ` +
        `**${r.ratio}** ${mark}${spread} | ${r.target.comparison} ${r.target.value}${stretch} | ${latency(r.ours)} | ${latency(r.reference)} |`,
    );
  }
  return lines.join('\n');
}

function machineLine(machine) {
  return `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres}`;
}

module.exports = { markdownTable, machineLine };
