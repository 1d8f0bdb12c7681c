import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../chaos/src/processes';
import { waitFor } from './wait';

export { freePort };

const ROOT = join(__dirname, '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/** Starts the built API (`dist/apps/api`) or worker (`dist/apps/worker`) as its own Node process. */
export function spawnService(app: 'api' | 'worker', env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', app, 'src', 'main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '4', READ_YOUR_WRITES_TIMEOUT_MS: '60000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => output, exited };
}

export async function waitForHttp(baseUrl: string): Promise<void> {
  await waitFor(async () => (await fetch(`${baseUrl}/docs-json`).catch(() => undefined))?.ok, `the API at ${baseUrl}`);
}

/** Waits for the service to print `text`; one that exits first fails at once (its start has no deadline to catch it). */
export async function waitForOutput(service: ServiceProcess, text: string): Promise<void> {
  const exitedFirst = service.exited.then((code) => {
    if (!service.output().includes(text)) throw new Error(`${service.child.pid} exited (${code}) before printing "${text}":\n${service.output()}`);
  });
  await Promise.race([waitFor(async () => service.output().includes(text), `"${text}" in the output of ${service.child.pid}`), exitedFirst]);
}

/** The processes of a split deployment, started and ready: its APIs' base URLs, its workers and projectors. */
export interface SplitService {
  apis: string[];
  workers: ServiceProcess[];
  projectors: ServiceProcess[];
  /** Every process above, to stop with stopAll. */
  all: ServiceProcess[];
}

/**
 * Starts the production split on one database: `apis` API processes on free ports (each its own
 * PUBLIC_BASE_URL), `workers` callback and payment workers and `projectors` projectors, and waits until
 * each is ready.
 */
export async function startSplitService(env: Record<string, string>, shape: { apis?: number; workers?: number; projectors?: number; projectorEnv?: Record<string, string> } = {}): Promise<SplitService> {
  const ports = await Promise.all(Array.from({ length: shape.apis ?? 1 }, () => freePort()));
  const apis = ports.map((port) => `http://127.0.0.1:${port}`);
  const apiProcesses = ports.map((port, i) => spawnService('api', { ...env, ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: apis[i] }));
  const workers = Array.from({ length: shape.workers ?? 0 }, () => spawnService('worker', { ...env, ROLE: 'worker' }));
  const projectors = Array.from({ length: shape.projectors ?? 1 }, () => spawnService('worker', { ...env, ROLE: 'projector', ...shape.projectorEnv }));
  const all = [...apiProcesses, ...workers, ...projectors];
  try {
    await Promise.all(apis.map(waitForHttp));
    await Promise.all([...workers, ...projectors].map((service) => waitForOutput(service, 'worker ready')));
  } catch (error) {
    await stopAll(all);
    throw error;
  }
  return { apis, workers, projectors, all };
}

export function stopAll(services: ServiceProcess[]): Promise<unknown> {
  for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  return Promise.all(services.map((s) => s.exited));
}


