import { type BackendFactory, createPostgresBackend, type PostgresConnectionOptions, type PostgresQueueBackend } from 'bullmq';

function forgetStart(memo: object): void {
  (memo as { readyPromise?: Promise<void> }).readyPromise = undefined;
}

/**
 * BullMQ's PostgreSQL backend, with one change: BullMQ 6.7 keeps the outcome of its first connection
 * for good (PostgresConnection and PostgresQueueBackend each memoize `waitUntilReady`), so a process
 * started while the database was away, or between a primary's death and its standby's promotion,
 * would hold a queue that never works. A failed start is forgotten, and the next use tries again.
 */
export const createRetryingPostgresBackend: BackendFactory<PostgresQueueBackend, PostgresConnectionOptions> = (name, opts, factoryOptions) => {
  const backend = createPostgresBackend(name, opts, factoryOptions);
  const ready = backend.waitUntilReady.bind(backend);
  backend.waitUntilReady = () =>
    ready().catch((error: unknown) => {
      forgetStart(backend);
      forgetStart(backend.connection);
      throw error;
    });
  return backend;
};
