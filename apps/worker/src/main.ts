import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { createWorker } from './worker.factory';

/** A process without HTTP: scheduled payment work (ROLE=worker, the default) or the projector (ROLE=projector). */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ROLE: process.env.ROLE ?? 'worker' });
  await createWorker(config);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
