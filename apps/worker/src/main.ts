import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { createWorker } from './worker.factory';

/** A process without HTTP: the projector (and, as they arrive, the background workers). */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ROLE: process.env.ROLE ?? 'projector' });
  await createWorker(config);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
