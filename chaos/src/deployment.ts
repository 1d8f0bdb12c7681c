import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type ManagedProcess, ROOT, serviceProcess, waitUntil } from './processes';

export interface Deployment {
  apis: string[];
  /** Everything `kill -9` may hit: the callback/payment workers and the projector. */
  workers: ManagedProcess[];
  all: ManagedProcess[];
}

/** Short retry and reconcile intervals, so that a minute's run goes through many retries and recoveries. */
const TIMINGS = {
  SANDBOX_DELAY_MS: '300',
  CALLBACK_TIMEOUT_MS: '1000',
  CALLBACK_RETRY_SCHEDULE_MS: '250,500,1000,2000,2000,2000,2000,2000,2000,2000',
  REFUND_RETRY_MS: '500',
  RECONCILE_INTERVAL_MS: '2000',
  READ_YOUR_WRITES_TIMEOUT_MS: '5000',
};

/**
 * The scaled-out shape (README "Scaling") as separate processes of the built service: two APIs, two
 * workers (callbacks, expiries, refunds) and two projectors (active and standby), on one PostgreSQL
 * schema and one Redis.
 */
export async function startDeployment(env: Record<string, string>, runDir: string): Promise<Deployment> {
  if (!existsSync(join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'))) throw new Error('the service is not built: run `npm run build` first');
  const ports = [await freePort(), await freePort()];
  const apis = ports.map((port) => `http://127.0.0.1:${port}`);
  const common = { ...env, ...TIMINGS, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', CALLBACK_ALLOW_PRIVATE_URLS: 'true' };
  const apiProcesses = ports.map((port, i) =>
    serviceProcess(`api-${i + 1}`, 'api', { ...common, ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: apis[i] }, join(runDir, `api-${i + 1}.log`)),
  );
  // Interleaved so that the round-robin kills alternate between callback/payment workers and projectors.
  const workers = [
    serviceProcess('worker-1', 'worker', { ...common, ROLE: 'worker', SANDBOX_NOTIFY_URL: apis[0] }, join(runDir, 'worker-1.log')),
    serviceProcess('projector-1', 'worker', { ...common, ROLE: 'projector' }, join(runDir, 'projector-1.log')),
    serviceProcess('worker-2', 'worker', { ...common, ROLE: 'worker', SANDBOX_NOTIFY_URL: apis[1] }, join(runDir, 'worker-2.log')),
    serviceProcess('projector-2', 'worker', { ...common, ROLE: 'projector' }, join(runDir, 'projector-2.log')),
  ];
  // The APIs first: they run the migrations the workers would otherwise race for.
  for (const api of apiProcesses) api.start();
  await Promise.all(apis.map((api) => waitUntil(async () => (await fetch(`${api}/health/live`)).ok, `the API at ${api}`, 60_000)));
  for (const worker of workers) worker.start();
  await Promise.all(workers.map((worker) => waitUntil(() => worker.output().includes('worker ready'), `${worker.name} to start`, 60_000)));
  return { apis, workers, all: [...apiProcesses, ...workers] };
}
