import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import type { EventStore } from '@app/event-store';
import { loadConfig, type AppConfig } from '@app/config';
import { createApp } from '../../apps/api/src/app.factory';
import { createTestSchema, type TestSchema } from './postgres';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

export interface RunningApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  schema?: TestSchema;
  /** Stops the service (keeps its data). */
  stop(): Promise<void>;
  /** Stops the service and drops its data. */
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a schema (to restart a service on the same data). */
  schema?: TestSchema;
  /** Run on embedded PGlite in this directory instead of PostgreSQL. */
  embeddedDataDir?: string;
  /** Capture the service's JSON logs. */
  logDestination?: DestinationStream;
  /** Run on this event store instead of the configured one. */
  eventStore?: EventStore;
}

/** Starts the whole service (API, projector) on a free port, on its own PostgreSQL schema. */
export async function startApp(options: StartOptions = {}): Promise<RunningApp> {
  const schema = options.embeddedDataDir ? undefined : (options.schema ?? (await createTestSchema('e2e')));
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    SECRETS_KEY: '11'.repeat(32),
    LOG_LEVEL: 'silent',
    DEMO_MERCHANT: 'false',
    // Tests drive far more requests per merchant than a client would; the limit has its own test.
    RATE_LIMIT_PER_MINUTE: '0',
    // Their callback receivers listen on this machine; the guard that refuses it by default has its own test.
    CALLBACK_ALLOW_PRIVATE_URLS: 'true',
    // Test files run side by side on one PostgreSQL; each service keeps few connections.
    DATABASE_POOL_SIZE: '6',
    // A response waits for the read models to include its write; on a loaded machine the projector
    // can be far behind, and a read after the response must still find the write: the longest wait
    // the service allows (libs/config/src/app-config.ts).
    READ_YOUR_WRITES_TIMEOUT_MS: '60000',
    ...(schema ? { DATABASE_URL: schema.url, DATABASE_SCHEMA: schema.schema } : { DATA_DIR: options.embeddedDataDir! }),
    ...options.env,
  };
  let config = loadConfig(env);
  const app = await createApp(config, { logDestination: options.logDestination, eventStore: options.eventStore });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  config = { ...config, port };
  return {
    app,
    config,
    baseUrl,
    schema,
    stop: () => app.close(),
    async close() {
      await app.close();
      if (!options.schema) await schema?.drop();
    },
  };
}

/**
 * Counts the requests the service is still answering. The sandbox provider notifies the service
 * over HTTP in the background; the suite stops the service only once those have been answered, so
 * a notification caught mid-flight by the shutdown cannot hold its keep-alive connection open.
 */
export function trackRequestsInFlight(app: RunningApp['app']): () => number {
  let inFlight = 0;
  app.getHttpServer().on('request', (_request: unknown, response: { once(event: 'close', listener: () => void): void }) => {
    inFlight += 1;
    response.once('close', () => (inFlight -= 1));
  });
  return () => inFlight;
}
