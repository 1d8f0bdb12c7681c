'use strict';
/**
 * The HTTP load generator, run as its own process: `node bench/load/cannon.js '<json>'`. Warms the
 * target up, then measures, and prints one JSON line: requests/s, p50/p99 latency, failures.
 */
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');
const { ALLOCATIONS, escrowBody } = require('./payloads');

const input = JSON.parse(process.argv[2]);
const json = { 'content-type': 'application/json' };

/** Escrows paid beforehand (input.idsFile), each handed out once across the warm-up and the measurement. */
let paid;
let nextPaid = 0;
function takePaid() {
  paid ??= JSON.parse(readFileSync(input.idsFile, 'utf8'));
  if (nextPaid >= paid.length) throw new Error(`all ${paid.length} paid escrows were used: size the pool for the load`);
  return paid[nextPaid++];
}

/** Cycles through ids (escrows to verify), so every request reads a different row. */
function cycling(ids) {
  let next = 0;
  return () => ids[next++ % ids.length];
}

let sequence = 0;
const uniqueOrderId = () => `life-${process.pid}-${Date.now()}-${sequence++}`;

function createAtEscrows() {
  return {
    idReplacement: true,
    requests: [{ method: 'POST', path: '/escrows', headers: json, body: JSON.stringify(escrowBody('bench-[<id>]')) }],
  };
}

const WORKLOADS = {
  /** Ours: create an escrow (3 allocations); the 201 comes after the read models include it. */
  'create-escrow': () => ({
    idReplacement: true,
    requests: [
      {
        method: 'POST',
        path: '/v1/trdp/escrow/order',
        headers: { ...json, 'x-api-secret': input.apiSecret },
        body: JSON.stringify(escrowBody('bench-[<id>]')),
      },
    ],
  }),
  /** Reference: one INSERT of the same request into a table as wide as payables_view. */
  insert: () => createAtEscrows(),
  /** A peer's create escrow: the same request to its POST /escrows. */
  'peer-create': () => createAtEscrows(),
  verify: () => {
    const id = cycling(input.ids);
    return {
      requests: [
        {
          method: 'POST',
          path: '/v1/trdp/verify',
          headers: { ...json, 'x-api-secret': input.apiSecret },
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ orderId: id() }) }),
        },
      ],
    };
  },
  /** A merchant's statement of one period (input.query: from and to), the same request each time. */
  statement: () => ({
    requests: [{ method: 'GET', path: `/v1/trdp/statement?${input.query}`, headers: { 'x-api-secret': input.apiSecret } }],
  }),
  /** Any GET of the merchant's (input.path: a payout, its first page of movements, the payout settings), the same request each time; with input.accountId, acting for that account of its. */
  get: () => ({
    requests: [{ method: 'GET', path: input.path, headers: { 'x-api-secret': input.apiSecret, ...(input.accountId ? { 'x-account-id': input.accountId } : {}) } }],
  }),
  /** Reference: one SELECT by primary key. */
  select: () => {
    const id = cycling(input.ids);
    return {
      requests: [{ method: 'POST', path: '/verify', headers: json, setupRequest: (request) => ({ ...request, body: JSON.stringify({ orderId: id() }) }) }],
    };
  },
  /** Each connection walks escrows through their whole life: create, pay, release each allocation. */
  lifecycle: () => {
    const headers = { ...json, 'x-api-secret': input.apiSecret };
    const release = (allocation) => ({
      method: 'POST',
      headers,
      setupRequest: (request, context) => ({
        ...request,
        path: `/v1/trdp/escrow/${context.escrowId}/release`,
        body: JSON.stringify({ merchantId: input.payees[allocation.merchantId] }),
      }),
    });
    return {
      requests: [
        {
          method: 'POST',
          path: '/v1/trdp/escrow/order',
          headers,
          setupRequest: (request) => ({ ...request, body: JSON.stringify(escrowBody(uniqueOrderId())) }),
          onResponse: (status, body, context) => {
            context.escrowId = status === 201 ? JSON.parse(body).data.escrowId : undefined;
          },
        },
        {
          method: 'POST',
          headers,
          setupRequest: (request, context) =>
            context.escrowId && { ...request, path: `/v1/sandbox/orders/${context.escrowId}/complete`, body: JSON.stringify({ outcome: 'PAID' }) },
        },
        ...ALLOCATIONS.map(release),
      ],
    };
  },
  /**
   * Ours, against the peers: create an escrow, then release each allocation of one paid beforehand
   * (ours releases only what was paid; the peers have no payments), so every side makes the same
   * requests: one create and a release per allocation.
   */
  'lifecycle-prepaid': () => {
    const headers = { ...json, 'x-api-secret': input.apiSecret };
    return {
      requests: [
        { method: 'POST', path: '/v1/trdp/escrow/order', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify(escrowBody(uniqueOrderId())) }) },
        ...ALLOCATIONS.map((allocation, i) => ({
          method: 'POST',
          headers,
          setupRequest: (request, context) => {
            if (i === 0) context.escrowId = takePaid();
            return { ...request, path: `/v1/trdp/escrow/${context.escrowId}/release`, body: JSON.stringify({ merchantId: input.payees[allocation.merchantId] }) };
          },
        })),
      ],
    };
  },
  /** A peer's lifecycle: create an escrow, then release each of its allocations. */
  'peer-lifecycle': () => ({
    requests: [
      {
        method: 'POST',
        path: '/escrows',
        headers: json,
        setupRequest: (request) => ({ ...request, body: JSON.stringify(escrowBody(uniqueOrderId())) }),
        onResponse: (status, body, context) => {
          context.escrowId = status === 201 ? JSON.parse(body).data.escrowId : undefined;
        },
      },
      ...ALLOCATIONS.map((allocation) => ({
        method: 'POST',
        headers: json,
        setupRequest: (request, context) =>
          context.escrowId && { ...request, path: `/escrows/${context.escrowId}/release`, body: JSON.stringify({ merchantId: allocation.merchantId }) },
      })),
    ],
  }),
};

/** Runs for `durationSeconds`, or until `amount` requests were answered if given (autocannon then ignores the duration). */
async function run(durationSeconds, amount) {
  const result = await autocannon({
    url: input.url,
    connections: input.connections,
    duration: durationSeconds,
    amount,
    // A run of `amount` ends at the first sample after its last answer: sample often, or it is measured up to a second long.
    ...(amount ? { sampleInt: 20 } : {}),
    timeout: 30,
    ...WORKLOADS[input.workload](),
  });
  return result;
}

async function main() {
  if (!WORKLOADS[input.workload]) throw new Error(`unknown workload ${input.workload}`);
  const warmup = input.warmup > 0 || input.warmupAmount > 0 ? await run(input.warmup, input.warmupAmount) : undefined;
  const result = await run(input.duration, input.amount);
  process.stdout.write(
    `${JSON.stringify({
      requests: result.requests.total,
      warmupRequests: warmup?.requests.total ?? 0,
      // Every 2xx, the warm-up's too: what the target should have written.
      answered2xx: result['2xx'] + (warmup?.['2xx'] ?? 0),
      // Measured from its own clock: autocannon's `duration` is whole seconds.
      perSecond: result.requests.total / ((result.finish - result.start) / 1000 || input.duration),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      statusCodes: result.statusCodeStats,
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
