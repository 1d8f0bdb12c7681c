import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { createPgClient, createPgliteClient, migrate, SQL_CLIENT, type SqlClient } from '@app/database';
import { createKurrentEventStore, EVENT_STORE, EVENT_STORE_MIGRATIONS, type EventStore, PostgresEventStore } from '@app/event-store';
import { AuditorStore, ConsoleSessions, CREDENTIAL_MIGRATIONS, CredentialStore, MerchantLogins, SignInThrottle } from '@app/merchants';
import { ProjectionProgress, READ_MODEL_MIGRATIONS } from '@app/read-models';
import { join } from 'node:path';
import { IDEMPOTENCY_MIGRATIONS } from '../http/idempotency/idempotency.migrations';
import { Metrics } from '../operations/metrics.service';
import { CommandRunner } from './command-runner';
import { notificationChannels } from './notification-channels';

async function openDatabase(config: AppConfig): Promise<SqlClient> {
  const db = config.databaseUrl
    ? createPgClient({ connectionString: config.databaseUrl, schema: config.databaseSchema })
    : await createPgliteClient(join(config.dataDir, 'pglite'));
  try {
    await migrate(db, config.databaseSchema, 'event-store', EVENT_STORE_MIGRATIONS);
    await migrate(db, config.databaseSchema, 'merchants', CREDENTIAL_MIGRATIONS);
    await migrate(db, config.databaseSchema, 'read-models', READ_MODEL_MIGRATIONS);
    await migrate(db, config.databaseSchema, 'idempotency', IDEMPOTENCY_MIGRATIONS);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Closes the database last: everything that uses it stops in beforeApplicationShutdown, and the HTTP
 * server has drained its requests before onApplicationShutdown runs.
 */
@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.progress.close();
    await this.db.close().catch((error: unknown) => this.logger.error(`closing the database failed: ${String(error)}`));
  }
}

/** The process-wide infrastructure: configuration, database, event store, credentials, projection progress. */
@Global()
@Module({})
export class InfrastructureModule {
  /** `eventStore` replaces the configured one (tests run the whole service on a stand-in adapter). */
  static forRoot(config: AppConfig, eventStore?: EventStore): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: SQL_CLIENT, useFactory: () => openDatabase(config) },
        {
          provide: EVENT_STORE,
          useFactory: (db: SqlClient) =>
            eventStore ??
            (config.eventStore === 'eventstoredb'
              ? createKurrentEventStore(config.eventStoreConnectionString!)
              : new PostgresEventStore(db, { notifyChannel: notificationChannels(config).events })),
          inject: [SQL_CLIENT],
        },
        { provide: CredentialStore, useFactory: (db: SqlClient) => new CredentialStore(db, config.secretsKey), inject: [SQL_CLIENT] },
        { provide: AuditorStore, useFactory: (db: SqlClient) => new AuditorStore(db), inject: [SQL_CLIENT] },
        { provide: MerchantLogins, useFactory: (db: SqlClient) => new MerchantLogins(db), inject: [SQL_CLIENT] },
        { provide: SignInThrottle, useFactory: (db: SqlClient) => new SignInThrottle(db), inject: [SQL_CLIENT] },
        { provide: ConsoleSessions, useFactory: (db: SqlClient) => new ConsoleSessions(db), inject: [SQL_CLIENT] },
        {
          provide: ProjectionProgress,
          useFactory: (db: SqlClient) => new ProjectionProgress(db, { checkpointChannel: notificationChannels(config).checkpoint }),
          inject: [SQL_CLIENT],
        },
        { provide: Metrics, useValue: new Metrics() },
        CommandRunner,
        DatabaseLifecycle,
      ],
      exports: [
        APP_CONFIG,
        SQL_CLIENT,
        EVENT_STORE,
        CredentialStore,
        AuditorStore,
        MerchantLogins,
        SignInThrottle,
        ConsoleSessions,
        ProjectionProgress,
        CommandRunner,
        Metrics,
      ],
    };
  }
}
