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

/** Waits until the process at baseUrl answers `path`: the API's OpenAPI document, or the health check every HTTP process serves. */
export async function waitForHttp(baseUrl: string, path = '/docs-json'): Promise<void> {
  await waitFor(async () => (await fetch(`${baseUrl}${path}`).catch(() => undefined))?.ok, `${path} at ${baseUrl}`);
}

/** Waits for the service to print `text`; one that exits first fails at once (its start has no deadline to catch it). */
export async function waitForOutput(service: ServiceProcess, text: string): Promise<void> {
  const exitedFirst = service.exited.then((code) => {
    if (!service.output().includes(text)) throw new Error(`${service.child.pid} exited (${code}) before printing "${text}":\n${service.output()}`);
  });
  await Promise.race([waitFor(async () => service.output().includes(text), `"${text}" in the output of ${service.child.pid}`), exitedFirst]);
}

/** The processes of a split deployment, started and ready: its APIs' and faces' base URLs, its workers and projectors. */
export interface SplitService {
  apis: string[];
  /** The processes serving the REST API alone (ROLE=rest). */
  rest: string[];
  /** The processes serving the dashboard, the audit console, the onboarding page and the checkout alone (ROLE=faces). */
  faces: string[];
  workers: ServiceProcess[];
  projectors: ServiceProcess[];
  /** Every process above, to stop with stopAll. */
  all: ServiceProcess[];
}

/** `count` HTTP processes of this ROLE on free ports, each its own PUBLIC_BASE_URL. */
async function spawnHttp(role: 'api' | 'rest' | 'faces', count: number, env: Record<string, string>): Promise<{ urls: string[]; processes: ServiceProcess[] }> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  return { urls, processes: ports.map((port, i) => spawnService('api', { ...env, ROLE: role, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: urls[i] })) };
}

/**
 * Starts the production split on one database: `apis` API processes (the REST API and the faces), `rest` and
 * `faces` processes serving one wing alone, `workers` callback and payment workers and `projectors` projectors,
 * and waits until each is ready.
 */
export async function startSplitService(
  env: Record<string, string>,
  shape: { apis?: number; rest?: number; faces?: number; workers?: number; projectors?: number; projectorEnv?: Record<string, string> } = {},
): Promise<SplitService> {
  const apis = await spawnHttp('api', shape.apis ?? 1, env);
  const rest = await spawnHttp('rest', shape.rest ?? 0, env);
  const faces = await spawnHttp('faces', shape.faces ?? 0, env);
  const workers = Array.from({ length: shape.workers ?? 0 }, () => spawnService('worker', { ...env, ROLE: 'worker' }));
  const projectors = Array.from({ length: shape.projectors ?? 1 }, () => spawnService('worker', { ...env, ROLE: 'projector', ...shape.projectorEnv }));
  const all = [...apis.processes, ...rest.processes, ...faces.processes, ...workers, ...projectors];
  try {
    await Promise.all([...apis.urls, ...rest.urls].map((url) => waitForHttp(url)));
    await Promise.all(faces.urls.map((url) => waitForHttp(url, '/health/live')));
    await Promise.all([...workers, ...projectors].map((service) => waitForOutput(service, 'worker ready')));
  } catch (error) {
    await stopAll(all);
    throw error;
  }
  return { apis: apis.urls, rest: rest.urls, faces: faces.urls, workers, projectors, all };
}

export function stopAll(services: ServiceProcess[]): Promise<unknown> {
  for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  return Promise.all(services.map((s) => s.exited));
}


