import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { ProjectionProgress, Projector, projectionsFor } from '@app/read-models';
import { notificationChannels } from './notification-channels';

/** Runs the projector in processes whose ROLE includes it (`all`, `projector`). */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Projector');
  readonly projector: Projector;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
  ) {
    this.projector = new Projector(db, store, projectionsFor(config.eventStore), progress, {
      lockName: `projector:${config.databaseSchema}`,
      checkpointChannel: notificationChannels(config).checkpoint,
      onActive: () => this.logger.log('active: applying the event log to the read models'),
      onError: (error) => this.logger.error(`stopped on an error and will retry: ${error instanceof Error ? error.stack : String(error)}`),
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.role === 'all' || this.config.role === 'projector') this.projector.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.progress.close();
    await this.projector.stop();
  }
}
