import { loadConfig } from '@app/config';
import { migrate } from '@app/database';
import { callbackStream, deliveryDecider, signCallbackBody } from '@app/callbacks';
import { EVENT_STORE_MIGRATIONS, PostgresEventStore } from '@app/event-store';
import { type CommandRunner, composeCommandRunners, Metrics, ProjectedReads, systemClock } from '@app/infrastructure';
import { ProjectionProgress } from '@app/read-models';
import type { Scheduler } from '@app/scheduling';
import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import { CallbackDeliveryService } from './callback-delivery.service';
import { type CallbackJob, nextAttemptJob } from './callback-queue';
import type { CallbackSender, SendResult } from './callback-sender';
import { WebhookSecrets } from './webhook-secrets';

const metadata = { actor: { type: 'system' as const, id: 'test' } };
const config = loadConfig({ CALLBACK_RETRY_SCHEDULE_MS: '100,200' });

class Queue implements Pick<Scheduler<CallbackJob>, 'schedule'> {
  readonly jobs: CallbackJob[] = [];
  async schedule(job: CallbackJob): Promise<void> {
    this.jobs.push(job);
  }
}

class Sender {
  readonly sent: { headers: Record<string, string>; body: string }[] = [];
  constructor(private readonly answers: number[]) {}
  async send(_url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    this.sent.push({ headers, body });
    return { statusCode: this.answers.shift() ?? 200, latencyMs: 1 };
  }
}

describe('CallbackDeliveryService', () => {
  let db: TestSchema;
  let store: PostgresEventStore;
  let runner: CommandRunner;

  beforeAll(async () => {
    db = await createTestSchema('cb_delivery');
    await migrate(db.client, db.schema, 'event-store', EVENT_STORE_MIGRATIONS);
    store = new PostgresEventStore(db.client);
    runner = composeCommandRunners(store, new ProjectedReads(store, new ProjectionProgress(db.client), config), new Metrics()).background;
  });

  afterAll(async () => {
    await db?.drop();
  });

  /** A worker process: its own queue client, sender and secret cache. */
  function worker(answers: number[]) {
    const queue = new Queue();
    const sender = new Sender(answers);
    const secrets = new WebhookSecrets({ webhookSecret: async () => 'whsec_test', accountWebhookSecret: async () => 'whsec_account', endpointSecret: async () => undefined });
    const service = new CallbackDeliveryService(config, runner, secrets, queue as unknown as Scheduler<CallbackJob>, sender as unknown as CallbackSender, new Metrics(), systemClock);
    return { queue, sender, service };
  }

  async function scheduled(deliveryId: string): Promise<CallbackJob> {
    const data = {
      deliveryId,
      merchantId: 'm-1',
      orderId: 'esc_1',
      sourceEventId: `src-${deliveryId}`,
      sourceEventType: 'EscrowFunded',
      url: 'https://merchant.example/cb',
      body: `{"status":"PAID","deliveryId":"${deliveryId}"}`,
      scheduledAt: new Date().toISOString(),
    };
    const outcome = await runner.run(callbackStream(deliveryId), deliveryDecider, { type: 'ScheduleCallback', data }, metadata);
    return nextAttemptJob({ ...outcome.state, scheduled: data }, outcome.head!, outcome.position!, Date.now());
  }

  const types = async (deliveryId: string) => (await store.readStream(callbackStream(deliveryId))).map((e) => e.type);

  it('sends the carried bytes and records the attempt without reading the delivery stream', async () => {
    const job = await scheduled('dlv_a');
    const { sender, service } = worker([200]);
    const reads = jest.spyOn(store, 'readStream');
    await service.deliver(job);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(sender.sent[0].body).toBe(job.delivery!.scheduled.body);
    expect(sender.sent[0].headers['x-signature']).toBe(signCallbackBody('whsec_test', sender.sent[0].headers['x-timestamp'], sender.sent[0].body));
    expect(await types('dlv_a')).toEqual(['CallbackScheduled', 'CallbackAttempted', 'CallbackDelivered']);
  });

  it('an attempt recorded against a delivery changed since its job was queued is refused and decided again on the history', async () => {
    const job = await scheduled('dlv_b');
    await runner.run(callbackStream('dlv_b'), deliveryDecider, { type: 'RequestRedelivery', data: { deliveryId: 'dlv_b', merchantId: 'm-1', at: new Date().toISOString() } }, metadata);
    const { queue, service } = worker([500]);

    await service.deliver(job);

    expect(await types('dlv_b')).toEqual(['CallbackScheduled', 'CallbackRedeliveryRequested', 'CallbackAttempted']);
    // The retry carries the delivery as the re-decided record left it: after the redelivery, in its round.
    expect(queue.jobs).toHaveLength(1);
    expect(queue.jobs[0]).toMatchObject({ attempt: 2, round: 1, delivery: { revision: '2', attemptsInRound: 1 } });
  });

  it('a duplicate of an attempt already recorded sends again at most, and records nothing', async () => {
    const job = await scheduled('dlv_c');
    await worker([200]).service.deliver(job);
    const { queue, service } = worker([200]);

    await service.deliver(job);

    expect(await types('dlv_c')).toEqual(['CallbackScheduled', 'CallbackAttempted', 'CallbackDelivered']);
    expect(queue.jobs).toEqual([]);
  });

  it('a queued retry survives a worker restart: a new process with empty caches sends and records it', async () => {
    const job = await scheduled('dlv_d');
    const before = worker([503]);
    await before.service.deliver(job);
    const retry = before.queue.jobs[0];
    // A retry may run long after a rotation this process has yet to see: it names no position, so it reads the secret.
    expect(retry.after).toBeUndefined();

    const after = worker([200]);
    await after.service.deliver(JSON.parse(JSON.stringify(retry)) as CallbackJob);

    expect(after.sender.sent[0].body).toBe(job.delivery!.scheduled.body);
    expect(await types('dlv_d')).toEqual(['CallbackScheduled', 'CallbackAttempted', 'CallbackAttempted', 'CallbackDelivered']);
  });
});
