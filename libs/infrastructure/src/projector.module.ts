import { type BeforeApplicationShutdown, Inject, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, EVENT_STORE_ENGINE, type EventStore, type EventStoreEngine } from '@app/event-store';
import { ProjectionProgress, Projector, projectionsFor } from '@app/read-models';
import { notificationChannels } from './notification-channels';

/** The projector of this deployment's read models: active here, or a standby waiting for the lock. */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Projector');
  readonly projector: Projector;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(EVENT_STORE_ENGINE) engine: EventStoreEngine,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
  ) {
    this.projector = new Projector(db, store, projectionsFor(engine), progress, {
      lockName: `projector:${config.databaseSchema}`,
      schema: config.databaseSchema,
      checkpointChannel: notificationChannels(config).checkpoint,
      onActive: () => this.logger.log('active: applying the event log to the read models'),
      onError: (error) => this.logger.error(`stopped on an error and will retry: ${error instanceof Error ? error.stack : String(error)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.projector.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.progress.close();
    await this.projector.stop();
  }
}

/** Loaded by processes whose ROLE includes the projector (`all`, `projector`) and by the CLI. */
@Module({ providers: [ProjectorService], exports: [ProjectorService] })
export class ProjectorModule {}
