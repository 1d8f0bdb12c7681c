'use strict';
/**
 * The physical limit for callbacks: a bare BullMQ worker that signs (HMAC) and POSTs with undici,
 * recording nothing. `fill` queues COUNT jobs and exits; `work` delivers them (concurrency as ours).
 * Env: REDIS_URL, PREFIX, COUNT, URL, SECRET.
 */
const { createHmac } = require('node:crypto');
const { Queue, Worker } = require('bullmq');
const { Agent, request } = require('undici');

const QUEUE = 'bench-callbacks';
const connection = { url: process.env.REDIS_URL, maxRetriesPerRequest: null };
const prefix = process.env.PREFIX;

async function fill() {
  const queue = new Queue(QUEUE, { connection, prefix });
  const count = Number(process.env.COUNT);
  for (let start = 0; start < count; start += 500) {
    const jobs = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const body = JSON.stringify({ billRefNo: `esc_${i}`, status: 'PAID', timestamp: new Date().toISOString(), message: 'Payment received', deliveryId: `dlv_${i}` });
      jobs.push({ name: 'callback', data: { url: process.env.URL, body }, opts: { jobId: `dlv_${i}`, removeOnComplete: true } });
    }
    await queue.addBulk(jobs);
  }
  await queue.close();
}

function work() {
  const agent = new Agent();
  const secret = process.env.SECRET;
  const worker = new Worker(
    QUEUE,
    async (job) => {
      const timestamp = String(Date.now());
      const signature = createHmac('sha256', secret).update(`${timestamp}.${job.data.body}`).digest('hex');
      const response = await request(job.data.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature },
        body: job.data.body,
        dispatcher: agent,
      });
      await response.body.dump();
      if (response.statusCode >= 300) throw new Error(`receiver answered ${response.statusCode}`);
    },
    { connection, prefix, concurrency: 32 },
  );
  worker.on('ready', () => process.stdout.write('worker ready\n'));
  process.on('SIGTERM', () => worker.close().then(() => process.exit(0)));
}

if (process.argv[2] === 'fill') {
  fill().then(
    () => process.stdout.write('{"filled":true}\n'),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else {
  work();
}
