import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CredentialStore } from '@app/credentials';
import { schedulerFor } from '@app/scheduling';
import { CallbackDeliveryService } from './callback-delivery.service';
import { CallbackDispatcher } from './callback-dispatcher.service';
import { ATTEMPTS_AT_ONCE, attemptLeaseMs, CALLBACK_QUEUE, CALLBACK_QUEUE_NAME, type CallbackJob, callbackJobId } from './callback-queue';
import { CallbackSender } from './callback-sender';
import { WebhookSecrets } from './webhook-secrets';

/** Loaded by processes whose ROLE includes the workers (`all`, `worker`): the callback outbox and its deliveries. */
@Module({
  providers: [
    {
      provide: CALLBACK_QUEUE,
      useFactory: (config: AppConfig) =>
        schedulerFor<CallbackJob>(config, { queue: CALLBACK_QUEUE_NAME, jobId: callbackJobId, concurrency: ATTEMPTS_AT_ONCE, lockDurationMs: attemptLeaseMs(config.callbackTimeoutMs) }),
      inject: [APP_CONFIG],
    },
    {
      provide: CallbackSender,
      useFactory: (config: AppConfig) => new CallbackSender({ allowPrivateAddresses: config.callbackAllowPrivateUrls, timeoutMs: config.callbackTimeoutMs }),
      inject: [APP_CONFIG],
    },
    { provide: WebhookSecrets, useFactory: (credentials: CredentialStore) => new WebhookSecrets(credentials), inject: [CredentialStore] },
    CallbackDeliveryService,
    CallbackDispatcher,
  ],
  exports: [CALLBACK_QUEUE],
})
export class CallbackDeliveryModule implements OnApplicationShutdown {
  constructor(@Inject(CallbackSender) private readonly sender: CallbackSender) {}

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
