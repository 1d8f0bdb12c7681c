import { createPgliteClient, migrate } from '@app/database';
import { eventStoreContract } from '../testing/event-store.contract';
import { EVENT_STORE_MIGRATIONS } from './event-store.migrations';
import { PostgresEventStore } from './postgres-event-store';

// Its own file: the contract on PGlite runs beside the one on PostgreSQL, on another test worker.
describe('PostgresEventStore on PGlite', () => {
  eventStoreContract(async () => {
    const db = await createPgliteClient(undefined);
    await migrate(db, 'public', 'event-store', EVENT_STORE_MIGRATIONS);
    return { store: new PostgresEventStore(db, { pollIntervalMs: 10 }), close: () => db.close() };
  });
});
