import type { Migration, SqlClient } from '@app/database';
import type { EventStore } from './event-store.port';
import type { InlineProjection } from './inline-projection.port';
import type { LogSource } from './postgres/sql-log-reader';

/** What a process hands the engine it opens: engines that share the service's PostgreSQL use it, others ignore it. */
export interface EngineWiring {
  /** NOTIFY channel that wakes subscriptions in every process sharing the schema. */
  notifyChannel?: string;
  /** A projection written in each append's statement (libs/event-store/src/inline-projection.port.ts). */
  inline?: InlineProjection;
  /** Appends written at once, the others grouped behind them (PostgresEventStoreOptions.maxAppendsInFlight). */
  maxAppendsInFlight?: number;
}

/**
 * What an event-store engine brings besides its `EventStore`, so that wiring asks the engine what it
 * can do instead of testing which engine runs (one entry per adapter, chosen in engines.ts).
 */
export interface EventStoreEngine {
  /** The tables the store keeps in the service's PostgreSQL: none where its events live elsewhere. */
  readonly migrations: readonly Migration[];
  /**
   * Where its log reads in SQL beside the read models (auditors' filters, time ranges, the hash-chain
   * walk). Undefined where the events live outside PostgreSQL: the read models then keep a copy of the log.
   */
  readonly sqlLog?: LogSource;
  open(db: SqlClient, wiring: EngineWiring): EventStore;
}

export const EVENT_STORE_ENGINE = Symbol('EVENT_STORE_ENGINE');
