import { eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory-event-store';

describe('InMemoryEventStore', () => {
  eventStoreContract(async () => {
    const store = new InMemoryEventStore();
    return { store, close: () => store.close() };
  });
});
