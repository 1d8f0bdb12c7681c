'use strict';
/**
 * `npm run bench [-- --quick]`: builds the service, runs every scenario against it as separate
 * processes beside a reference measured in the same run, prints the table and writes
 * bench/results/latest.json and latest.svg.
 *
 * Options: --quick (under 2 minutes), --smoke (tiny counts, for the test suite), --only a,b (scenario
 * ids), --no-build (use dist/ as it is), --results-dir <dir>, --cpu-prof <dir> (a CPU profile of every service process, by deployment and role),
 * --repeat N (each chosen scenario run N times in a row, on the same deployments: each row then gives the
 * median ratio and, in the table after it, the lowest and highest of the N, and in the JSON `spread`).
 */
const { execSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { RunContext } = require('./lib/context');
const { Resources } = require('./lib/infrastructure');
const { ROOT, stop } = require('./lib/processes');
const { repeatedResult } = require('./lib/result');
const { describeMachine } = require('./report/machine');
const { barChart } = require('./report/svg');
const { machineLine, markdownTable } = require('./report/table');
const SETTINGS = require('./settings');

const SCENARIOS = ['create-escrow', 'verify', 'lifecycle', 'rebuild', 'append', 'callbacks', 'growth', 'growth-statement', 'growth-merchant', 'growth-payout-size', 'growth-platform', 'growth-integrity', 'peers-create', 'peers-lifecycle'].map((id) => require(`./scenarios/${id}`));

async function main() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      'results-dir': { type: 'string', default: join(__dirname, 'results') },
      'cpu-prof': { type: 'string' },
      repeat: { type: 'string', default: '1' },
    },
  });
  const mode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const scenarios = SCENARIOS.filter((s) => !only || only.has(s.id));
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat wants a whole number of runs, not ${values.repeat}`);
  const log = (line) => process.stderr.write(`${line}\n`);
  const started = Date.now();

  if (!values['no-build']) {
    log('building the service (npm run build)');
    execSync('npm run build --silent', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const resources = new Resources();
  const ctx = new RunContext(SETTINGS[mode], resources, log, { cpuProfileDir: values['cpu-prof'] && resolve(values['cpu-prof']) });
  const results = [];
  try {
    for (const scenario of scenarios) {
      // Each row's runs, by row id, in the order the scenario first gave them.
      const runs = new Map();
      for (let run = 1; run <= repeat; run++) {
        log(`${scenario.id}${repeat > 1 ? ` (run ${run} of ${repeat})` : ''} …`);
        const t0 = Date.now();
        try {
          // A scenario gives one row, or one per peer.
          for (const result of [await scenario.run(ctx)].flat()) {
            runs.set(result.id, [...(runs.get(result.id) ?? []), result]);
            log(`  ${result.id}: ${result.ratio} (target ${result.target.comparison} ${result.target.value}) in ${Math.round((Date.now() - t0) / 1000)} s`);
            // A ratio over failed requests is not the one the scenario means: say so where it is read.
            if (result.failures > 0) log(`  ${result.failures} requests failed (non-2xx or errors)`);
            for (const note of result.notes ?? []) log(`  ${note}`);
          }
        } catch (error) {
          runs.set(scenario.id, [...(runs.get(scenario.id) ?? []), { id: scenario.id, title: scenario.title, error: String(error.stack ?? error) }]);
          log(`  failed: ${error.stack ?? error}`);
        }
      }
      for (const rows of runs.values()) results.push(repeat > 1 ? repeatedResult(rows) : rows[0]);
    }
  } finally {
    await resources.release(stop);
  }

  const machine = await describeMachine();
  const report = {
    mode,
    startedAt: new Date(started).toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    machine,
    settings: SETTINGS[mode],
    results,
  };
  const dir = resolve(values['results-dir']);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  const caption = `${machineLine(machine)}; ${mode} run of ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC`;
  writeFileSync(join(dir, 'latest.svg'), barChart(results, caption));
  process.stdout.write(`\n${markdownTable(results)}\n\nMachine: ${machineLine(machine)}. ${mode} run, ${report.durationSeconds} s.\n`);
  process.stdout.write(`Wrote ${join(dir, 'latest.json')} and latest.svg\n`);
  if (results.some((r) => r.error)) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
