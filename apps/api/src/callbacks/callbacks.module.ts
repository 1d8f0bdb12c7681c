import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { BullmqScheduler } from '../scheduling/bullmq-scheduler';
import { InProcessScheduler } from '../scheduling/in-process-scheduler';
import { CallbackDispatcher } from './callback-dispatcher.service';
import { CALLBACK_QUEUE, type CallbackJob, callbackJobId } from './callback-queue';
import { CallbacksController } from './callbacks.controller';
import { CallbackDeliveryService } from './delivery/callback-delivery.service';
import { CallbackSender } from './delivery/callback-sender';
import { ListDeliveriesHandler } from './list-deliveries/list-deliveries.handler';
import { RedeliverHandler } from './redeliver/redeliver.handler';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret/rotate-webhook-secret.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [CallbacksController],
  providers: [
    {
      provide: CALLBACK_QUEUE,
      useFactory: (config: AppConfig) =>
        config.redisUrl
          ? new BullmqScheduler<CallbackJob>({ queue: 'callbacks', redisUrl: config.redisUrl, prefix: config.redisPrefix, jobId: callbackJobId, concurrency: 32, lockDurationMs: 2 * config.callbackTimeoutMs + 5_000 })
          : new InProcessScheduler<CallbackJob>(callbackJobId),
      inject: [APP_CONFIG],
    },
    {
      provide: CallbackSender,
      useFactory: (config: AppConfig) =>
        new CallbackSender({ allowPrivateAddresses: config.callbackAllowPrivateUrls, timeoutMs: config.callbackTimeoutMs }),
      inject: [APP_CONFIG],
    },
    CallbackDeliveryService,
    CallbackDispatcher,
    ListDeliveriesHandler,
    RedeliverHandler,
    RotateWebhookSecretHandler,
  ],
  exports: [CALLBACK_QUEUE],
})
export class CallbacksModule implements OnApplicationShutdown {
  constructor(@Inject(CallbackSender) private readonly sender: CallbackSender) {}

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
