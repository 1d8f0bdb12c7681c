import 'reflect-metadata';
import { ConfigError, exitGracefully, loadConfig } from '@app/config';
import { createWorker } from './worker.factory';

/** A process without HTTP: scheduled payment work (ROLE=worker, the default) or the projector (ROLE=projector). */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ROLE: process.env.ROLE ?? 'worker' });
  const worker = await createWorker(config);
  exitGracefully(() => worker.close(), (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`worker ready (ROLE=${config.role})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
