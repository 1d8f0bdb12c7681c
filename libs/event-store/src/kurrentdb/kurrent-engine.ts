import type { EventStoreEngine } from '../event-store-engine';
import { createKurrentEventStore } from './kurrent-event-store';

/** The events in KurrentDB: PostgreSQL holds no log of them (no empty events table), only the read models. */
export function kurrentEngine(connectionString: string): EventStoreEngine {
  return { migrations: [], open: () => createKurrentEventStore(connectionString) };
}
