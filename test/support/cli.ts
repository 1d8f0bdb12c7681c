import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { untilTestEnds } from './wait';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');

export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

export interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Starts the built operator CLI (`dist/apps/cli`) in its own Node process, with only PATH and `env` in its environment. */
export function spawnCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits for a started CLI to end; one still running when its test ends (a hung command) is killed, so it cannot hold up the run. */
export async function finished(proc: CliProcess): Promise<CliRun> {
  const done = untilTestEnds(
    () => `the CLI (${proc.child.pid}) to finish:\n${proc.stdout()}${proc.stderr()}`,
    () => proc.child.kill('SIGKILL'),
  );
  const code = await proc.exited;
  done();
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}
