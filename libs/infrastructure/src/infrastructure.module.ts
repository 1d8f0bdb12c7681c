import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { createPgClient, createPgliteClient, isConnectionError, type Migration, migrate, SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, EVENT_STORE_ENGINE, type EventStore, type EventStoreEngine, eventStoreEngine, LOG_READER } from '@app/event-store';
import { auditLogReader, inlinePayablesView, ProjectionProgress, READ_MODEL_MIGRATIONS } from '@app/read-models';
import { CLOCK, systemClock } from './clock';
import { Clocks } from './clocks';
import { CommandRunner } from './command-runner';
import { BACKGROUND_RUNNER, type CommandEdge, type CommandRunners, composeCommandRunners } from './composed-command-runner';
import { Metrics } from './metrics';
import { notificationChannels } from './notification-channels';
import { ProjectedReads } from './projected-reads';

/** A component's migrations (libs/database: applied once each, in order, under a lock). */
export interface MigrationSet {
  component: string;
  migrations: readonly Migration[];
}

export interface InfrastructureOptions {
  /** The migrations of the modules this process loads besides the read models (credentials, say). */
  migrations?: readonly MigrationSet[];
  /** An event store to use instead of the configured one (tests run the whole service on a stand-in adapter). */
  eventStore?: EventStore;
  /** What this process's edge composes around the command runner (the API replays keyed requests). */
  commandEdge?: CommandEdge;
}

/** The runners of one process share its lanes and its stream memory. */
const COMMAND_RUNNERS = Symbol('COMMAND_RUNNERS');

/** How long a starting process waits for PostgreSQL to be reachable before it gives up and exits. */
const REACH_DATABASE_WITHIN_MS = 60_000;

async function openDatabase(config: AppConfig, engine: EventStoreEngine, sets: readonly MigrationSet[]): Promise<SqlClient> {
  const logger = new Logger('Storage');
  // A process restarted during a PostgreSQL restart or failover waits it out, as the running ones do,
  // instead of exiting and leaving its supervisor to try again.
  const deadline = Date.now() + REACH_DATABASE_WITHIN_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    try {
      return await migrateDatabase(config, engine, sets);
    } catch (error) {
      if (!config.databaseUrl || !isConnectionError(error) || Date.now() + wait > deadline) throw error;
      logger.warn(`PostgreSQL is not reachable (${String(error)}); trying again in ${wait} ms`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function migrateDatabase(config: AppConfig, engine: EventStoreEngine, sets: readonly MigrationSet[]): Promise<SqlClient> {
  const db = config.databaseUrl
    ? createPgClient({ connectionString: config.databaseUrl, schema: config.databaseSchema, maxConnections: config.databasePoolSize })
    : await createPgliteClient(join(config.dataDir, 'pglite'));
  try {
    if (engine.migrations.length > 0) await migrate(db, config.databaseSchema, 'event-store', engine.migrations);
    await migrate(db, config.databaseSchema, 'read-models', READ_MODEL_MIGRATIONS);
    for (const set of sets) await migrate(db, config.databaseSchema, set.component, set.migrations);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Closes the event store and the database last: everything that uses them stops in
 * beforeApplicationShutdown, and the HTTP server has drained its requests before onApplicationShutdown runs.
 */
@Injectable()
class StorageLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Storage');
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.progress.close();
    await this.store.close().catch((error: unknown) => this.logger.error(`closing the event store failed: ${String(error)}`));
    await this.db.close().catch((error: unknown) => this.logger.error(`closing the database failed: ${String(error)}`));
  }
}

/**
 * A worker's appends are mostly its callbacks' attempts, recorded one by one as receivers answer: two
 * commits in flight gather them into groups about twice as big as four do (attempts per commit 3.1 ->
 * 5.4, worker statements per callback 0.37 -> 0.23 in the callbacks bench) at the same rate. Other
 * roles keep the store's default (four).
 */
function appendsInFlight(config: AppConfig): number | undefined {
  return config.role === 'worker' ? 2 : undefined;
}

/** What every process shares: configuration, the clock and the resolver of objects' clocks, database, event store (its engine, the store, its log reader), projection progress, metrics and the command runner. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, options: InfrastructureOptions = {}): DynamicModule {
    const engine = eventStoreEngine(config);
    return {
      module: InfrastructureModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: EVENT_STORE_ENGINE, useValue: engine },
        { provide: SQL_CLIENT, useFactory: () => openDatabase(config, engine, options.migrations ?? []) },
        {
          provide: EVENT_STORE,
          useFactory: (db: SqlClient) =>
            options.eventStore ??
            engine.open(db, { notifyChannel: notificationChannels(config).events, inline: inlinePayablesView, maxAppendsInFlight: appendsInFlight(config) }),
          inject: [SQL_CLIENT],
        },
        {
          provide: LOG_READER,
          useFactory: (db: SqlClient) => auditLogReader(db, engine),
          inject: [SQL_CLIENT],
        },
        {
          provide: ProjectionProgress,
          useFactory: (db: SqlClient) => new ProjectionProgress(db, { checkpointChannel: notificationChannels(config).checkpoint }),
          inject: [SQL_CLIENT],
        },
        { provide: CLOCK, useValue: systemClock },
        { provide: Metrics, useValue: new Metrics() },
        {
          provide: COMMAND_RUNNERS,
          useFactory: (store: EventStore, reads: ProjectedReads, metrics: Metrics) => composeCommandRunners(store, reads, metrics, options.commandEdge),
          inject: [EVENT_STORE, ProjectedReads, Metrics],
        },
        { provide: CommandRunner, useFactory: (runners: CommandRunners) => runners.answering, inject: [COMMAND_RUNNERS] },
        { provide: BACKGROUND_RUNNER, useFactory: (runners: CommandRunners) => runners.background, inject: [COMMAND_RUNNERS] },
        Clocks,
        ProjectedReads,
        StorageLifecycle,
      ],
      exports: [APP_CONFIG, CLOCK, Clocks, EVENT_STORE_ENGINE, SQL_CLIENT, EVENT_STORE, LOG_READER, ProjectionProgress, CommandRunner, BACKGROUND_RUNNER, ProjectedReads, Metrics],
    };
  }
}
