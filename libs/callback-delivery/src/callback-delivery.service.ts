import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { callbackStream, deliveryDecider, parseRetryAfter, retryDelay, signCallbackBody, StaleAttempt } from '@app/callbacks';
import { BACKGROUND_RUNNER, CLOCK, type Clock, type CommandRunner, Metrics } from '@app/infrastructure';
import type { Scheduler } from '@app/scheduling';
import { afterPosition, CALLBACK_QUEUE, type CallbackJob, carriedState, nextAttemptJob } from './callback-queue';
import { CallbackSender, type SendResult } from './callback-sender';
import { WebhookSecrets } from './webhook-secrets';

/** Only these answers carry a Retry-After worth obeying (docs/concepts/callbacks.md). */
const HONOURS_RETRY_AFTER = new Set([429, 503]);

/**
 * One attempt of one delivery: sign the frozen payload with a fresh timestamp, POST it, record the
 * attempt as an event, and queue the next one if the receiver did not take it. A first attempt the
 * dispatcher makes, and a job queued by the attempt before, carry the delivery as that write left it, so the attempt
 * reads nothing: the record's append expects that revision, and a stream changed since (a
 * redelivery request, the same attempt made elsewhere) refuses it and the attempt is decided again
 * on the stream's history.
 */
@Injectable()
export class CallbackDeliveryService {
  private readonly logger = new Logger('Callbacks');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BACKGROUND_RUNNER) private readonly runner: CommandRunner,
    @Inject(WebhookSecrets) private readonly secrets: WebhookSecrets,
    @Inject(CALLBACK_QUEUE) private readonly queue: Scheduler<CallbackJob>,
    @Inject(CallbackSender) private readonly sender: CallbackSender,
    @Inject(Metrics) private readonly metrics: Metrics,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async deliver(job: CallbackJob): Promise<void> {
    const stream = callbackStream(job.deliveryId);
    const basis = job.delivery ? carriedState(job, job.delivery) : await this.runner.read(stream, deliveryDecider);
    const { state } = basis;
    const scheduled = state.scheduled;
    // A job for an attempt already made (a duplicate, or one the reconciler re-queued) does nothing.
    if (!scheduled || state.status !== 'PENDING' || job.attempt !== state.attemptCount + 1) return;
    const secret = await this.secrets.secretFor({ merchantId: scheduled.merchantId, endpointId: scheduled.endpointId }, afterPosition(job));
    if (!secret && scheduled.endpointId === undefined) throw new Error(`merchant ${scheduled.merchantId} has no webhook secret`);
    const body = scheduled.body;
    // The signature's timestamp is the real time: the receiver checks it against its own clock (docs/concepts/time.md).
    const timestamp = String(Date.now());
    const at = this.clock.now().toISOString();
    // An endpoint without a secret was deleted: its deliveries end here, with an attempt that says why.
    const result: SendResult = secret
      ? await this.sender.send(scheduled.url, { 'x-timestamp': timestamp, 'x-signature': signCallbackBody(secret, timestamp, body), 'x-delivery-id': scheduled.deliveryId }, body)
      : { error: 'The webhook endpoint was deleted', latencyMs: 0 };
    const schedule = this.config.callbackRetryScheduleMs;
    const retryAfter = result.statusCode !== undefined && HONOURS_RETRY_AFTER.has(result.statusCode) ? parseRetryAfter(result.retryAfter) : undefined;
    const nextAttemptAt = this.clock.now().getTime() + retryDelay(schedule, state.attemptsInRound, retryAfter);
    try {
      const outcome = await this.runner.run(
        stream,
        deliveryDecider,
        {
          type: 'RecordAttempt',
          data: {
            attempt: job.attempt,
            at,
            latencyMs: result.latencyMs,
            statusCode: result.statusCode,
            ...(result.response !== undefined ? { response: result.response } : {}),
            error: result.error,
            retriesLeft: secret ? schedule.length - state.attemptsInRound : 0,
            nextAttemptAt: new Date(nextAttemptAt).toISOString(),
          },
        },
        { causationId: scheduled.deliveryId, actor: { type: 'system', id: 'callbacks' } },
        basis,
      );
      this.metrics.callbackAttempts.inc({ outcome: outcome.state.status === 'PENDING' ? 'retrying' : outcome.state.status.toLowerCase() });
      if (outcome.state.status !== 'PENDING' || !outcome.head) return;
      // A retry names no position, so it reads the secret: it may be sent long after a rotation this process has yet to see.
      await this.queue.schedule(nextAttemptJob({ ...outcome.state, scheduled }, outcome.head, undefined, nextAttemptAt));
    } catch (error) {
      if (error instanceof StaleAttempt) return;
      throw error;
    }
  }

  /** Logs a failure of the machinery itself (not of the receiver), which the reconciler will retry. */
  async deliverSafely(job: CallbackJob): Promise<void> {
    try {
      await this.deliver(job);
    } catch (error) {
      this.logger.error(`delivery ${job.deliveryId} attempt ${job.attempt} failed before it was recorded: ${String(error)}`);
    }
  }
}
