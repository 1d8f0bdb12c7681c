import type { EventStoreEngine } from '../event-store-engine';
import { EVENT_STORE_MIGRATIONS } from './event-store.migrations';
import { PostgresEventStore } from './postgres-event-store';
import { EVENTS_TABLE } from './sql-log-reader';

/** The events in the service's own PostgreSQL (or PGlite), read by auditors from the store's table itself. */
export const POSTGRES_ENGINE: EventStoreEngine = {
  migrations: EVENT_STORE_MIGRATIONS,
  sqlLog: EVENTS_TABLE,
  open: (db, wiring) => new PostgresEventStore(db, wiring),
};
