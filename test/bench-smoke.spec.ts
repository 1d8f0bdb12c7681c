import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..');
const SCENARIOS = ['create-escrow', 'verify', 'lifecycle', 'rebuild', 'append', 'callbacks', 'growth'];

/**
 * The bench harness with tiny counts, so it cannot rot: every scenario runs against the built
 * service and its reference and yields a well-formed row. No figure is judged here: timing belongs in bench/.
 */
describe('bench harness (smoke run)', () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  let stdout = '';

  beforeAll(async () => {
    // dist/ is built by the test run's global setup.
    ({ stdout } = await promisify(execFile)(process.execPath, ['bench/run.js', '--smoke', '--no-build', '--results-dir', resultsDir], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }));
  }, 240_000);

  it('measures every scenario beside its reference and states the ratio and target', () => {
    const report = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8'));
    expect(report.mode).toBe('smoke');
    expect(report.machine).toEqual({ cpus: expect.any(Number), cpuModel: expect.any(String), node: process.version, postgres: expect.stringMatching(/^\d+/) });
    expect(report.results.map((r: { id: string }) => r.id)).toEqual(SCENARIOS);
    for (const result of report.results) {
      expect(result.error).toBeUndefined();
      expect(result.ours.value).toBeGreaterThan(0);
      expect(result.reference.value).toBeGreaterThan(0);
      expect(result.ratio).toBeGreaterThan(0);
      expect(['>=', '<=']).toContain(result.target.comparison);
      expect(typeof result.met).toBe('boolean');
    }
  });

  it("states the CPU each of the service's processes, the reference's server and PostgreSQL spent per created or verified escrow", () => {
    const report = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8'));
    for (const id of ['create-escrow', 'verify']) {
      const result = report.results.find((r: { id: string }) => r.id === id);
      // PostgreSQL runs on this machine in the test setup, so its share is measured too.
      expect(result.cpuPerRequest).toEqual({ api: expect.any(Number), projector: expect.any(Number), worker: expect.any(Number), postgres: expect.any(Number) });
      expect(result.referenceCpuPerRequest).toEqual({ server: expect.any(Number), postgres: expect.any(Number) });
      expect(result.cpuPerRequest.api).toBeGreaterThan(0);
      expect(result.cpuPerRequest.postgres).toBeGreaterThan(0);
      expect(result.referenceCpuPerRequest.server).toBeGreaterThan(0);
      expect(result.notes).toContainEqual(
        expect.stringMatching(/^CPU per request: api [\d.]+ ms, projector [\d.]+ ms, worker [\d.]+ ms, postgres [\d.]+ ms; reference: server [\d.]+ ms, postgres [\d.]+ ms$/),
      );
    }
  });

  it("states the CPU the rebuilding process and its PostgreSQL backends spent per event, and the raw read's", () => {
    const report = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8'));
    const result = report.results.find((r: { id: string }) => r.id === 'rebuild');
    expect(result.cpuPerRequest).toEqual({ process: expect.any(Number), postgres: expect.any(Number) });
    expect(result.referenceCpuPerRequest).toEqual({ process: expect.any(Number), postgres: expect.any(Number) });
    expect(result.cpuPerRequest.process).toBeGreaterThan(0);
    expect(result.notes).toContainEqual(expect.stringMatching(/^CPU per event: process [\d.]+ ms, postgres [\d.]+ ms; reference: process [\d.]+ ms, postgres [\d.]+ ms$/));
  });

  it('prints the table and draws every ratio in the SVG', () => {
    const report = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8'));
    const svg = readFileSync(join(resultsDir, 'latest.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const result of report.results) {
      expect(stdout).toContain(`| ${result.title} |`);
      expect(svg).toContain(`>${String(result.ratio)}</text>`);
    }
  });
});
