import type { EventStoreEngine } from './event-store-engine';
import { kurrentEngine } from './kurrentdb/kurrent-engine';
import { POSTGRES_ENGINE } from './postgres/postgres-engine';

/** The one place the EVENT_STORE setting becomes an engine (libs/config checks the connection string is given). */
export function eventStoreEngine(settings: { eventStore: 'postgres' | 'eventstoredb'; eventStoreConnectionString?: string }): EventStoreEngine {
  return settings.eventStore === 'eventstoredb' ? kurrentEngine(settings.eventStoreConnectionString!) : POSTGRES_ENGINE;
}
