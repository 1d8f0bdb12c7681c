import 'reflect-metadata';
import { ConfigError, exitGracefully, loadConfig } from '@app/config';
import { createApp } from './app.factory';
import { startupBanner } from './banner';
import { DemoMerchantService } from '@app/features/merchants';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  exitGracefully(() => app.close(), (line) => process.stderr.write(`${line}\n`));
  await app.listen(config.port, config.host);
  const demo = await app.get(DemoMerchantService).ensure();
  process.stdout.write(startupBanner(config, demo));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? `Configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
