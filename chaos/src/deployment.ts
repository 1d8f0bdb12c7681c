import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, ROOT, ServiceProcess, waitUntil } from './processes';

export interface Deployment {
  apis: string[];
  /** Everything `kill -9` may hit, in the order of the round robin: the roles alternate. */
  killable: ServiceProcess[];
  all: ServiceProcess[];
}

/** Short retry and reconcile intervals, so that a minute's run goes through many retries and recoveries. */
const TIMINGS = {
  SANDBOX_DELAY_MS: '300',
  CALLBACK_TIMEOUT_MS: '1000',
  CALLBACK_RETRY_SCHEDULE_MS: '250,500,1000,2000,2000,2000,2000,2000,2000,2000',
  REFUND_RETRY_MS: '500',
  PROVIDER_RECONCILE_AFTER_MS: '2000',
  RECONCILE_INTERVAL_MS: '2000',
  READ_YOUR_WRITES_TIMEOUT_MS: '5000',
  // Six processes on a server other suites may share (max_connections 100 by default): a few each.
  DATABASE_POOL_SIZE: '6',
};

/**
 * The scaled-out shape (docs/operations/scaling.md) as separate processes of the built service: two APIs, two
 * workers (callbacks, expiries, refunds) and two projectors (active and standby), on one PostgreSQL
 * schema and one Redis.
 */
export async function startDeployment(env: Record<string, string>, runDir: string, startWithinMs = 60_000): Promise<Deployment> {
  if (!existsSync(join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'))) throw new Error('the service is not built: run `npm run build` first');
  const ports = await freePorts(2);
  const apis = ports.map((port) => `http://127.0.0.1:${port}`);
  const common = { ...env, ...TIMINGS, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', CALLBACK_ALLOW_PRIVATE_URLS: 'true' };
  const apiProcesses = ports.map(
    (port, i) =>
      new ServiceProcess(`api-${i + 1}`, 'api', { ...common, ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: apis[i] }, join(runDir, `api-${i + 1}.log`), apis[i]),
  );
  // Debug: a worker logs each run of payment work that succeeded, which the work retries check matches with its failures.
  const workers = [1, 2].map(
    (n) => new ServiceProcess(`worker-${n}`, 'worker', { ...common, LOG_LEVEL: 'debug', ROLE: 'worker', SANDBOX_NOTIFY_URL: apis[n - 1] }, join(runDir, `worker-${n}.log`)),
  );
  const projectors = [1, 2].map((n) => new ServiceProcess(`projector-${n}`, 'projector', { ...common, ROLE: 'projector' }, join(runDir, `projector-${n}.log`)));
  // The APIs first: they run the migrations the workers would otherwise race for.
  for (const api of apiProcesses) api.start();
  await Promise.all(apis.map((api) => waitUntil(async () => (await fetch(`${api}/health/live`)).ok, `the API at ${api}`, startWithinMs)));
  for (const worker of [...workers, ...projectors]) worker.start();
  await Promise.all([...workers, ...projectors].map((worker) => waitUntil(() => worker.ready, `${worker.name} to start`, startWithinMs)));
  // Interleaved, so that the round-robin kills go api, worker, projector, api, worker, projector.
  const killable = [0, 1].flatMap((i) => [apiProcesses[i], workers[i], projectors[i]]);
  return { apis, killable, all: [...apiProcesses, ...workers, ...projectors] };
}
