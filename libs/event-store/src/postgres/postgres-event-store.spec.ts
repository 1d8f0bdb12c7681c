import { createPgliteClient, migrate } from '@app/database';
import { createTestSchema } from '../../../../test/support/postgres';
import { eventStoreContract } from '../testing/event-store.contract';
import { EVENT_STORE_MIGRATIONS } from './event-store.migrations';
import { PostgresEventStore } from './postgres-event-store';

describe('PostgresEventStore on PostgreSQL', () => {
  eventStoreContract(async () => {
    const db = await createTestSchema('es');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    return { store: new PostgresEventStore(db.client, { pollIntervalMs: 10 }), close: () => db.drop() };
  });
});

describe('PostgresEventStore on PGlite', () => {
  eventStoreContract(async () => {
    const db = await createPgliteClient(undefined);
    await migrate(db, 'public', 'event-store', EVENT_STORE_MIGRATIONS);
    return { store: new PostgresEventStore(db, { pollIntervalMs: 10 }), close: () => db.close() };
  });
});
