'use strict';
/**
 * The event-sourcing peer: create escrow and release written as Emmett's documentation and samples
 * write a web API. A decider (decide, evolve, initialState) run by Emmett's DeciderCommandHandler on
 * `@event-driven-io/emmett-postgresql`, and the escrow view as an inline Pongo projection, written in
 * the append's transaction, so a 201 is readable at once, as ours is. Fastify carries the routes:
 * Emmett's Express helpers are not published for 0.42, and the same HTTP layer as ours keeps the
 * comparison on the event-sourcing machinery. Requests are parsed with the rules ours applies
 * (escrow-rules.js). No payments: a created escrow's allocations can be released at once.
 * Env: PORT, DATABASE_URL (its own schema on search_path).
 */
const { createHash } = require('node:crypto');
const Fastify = require('fastify');
const { DeciderCommandHandler, STREAM_DOES_NOT_EXIST, isExpectedVersionConflictError, projections } = require('@event-driven-io/emmett');
const { getPostgreSQLEventStore, pongoSingleStreamProjection } = require('@event-driven-io/emmett-postgresql');
const { ConflictError, NotFoundError, parseCreateEscrow, parseRelease, releasable, statusAfterRelease } = require('./escrow-rules');

/** The peers authenticate no one: every request is this merchant's (ours checks its API secret). */
const MERCHANT = 'mer_bench';

const escrowIdFor = (orderId) => `esc_${createHash('sha256').update(`${MERCHANT}:${orderId}`).digest('base64url').slice(0, 22)}`;
const streamOf = (escrowId) => `escrow-${escrowId}`;

const initialState = () => ({ status: 'Empty' });

function evolve(state, { type, data }) {
  switch (type) {
    case 'EscrowCreated':
      return {
        status: 'PENDING',
        escrowId: data.escrowId,
        merchantId: data.merchantId,
        allocations: data.allocations.map((a) => ({ merchantId: a.merchantId, amount: a.amount, released: 0 })),
      };
    case 'AllocationReleased': {
      const allocations = state.allocations.map((a) => (a.merchantId === data.merchantId ? { ...a, released: a.released + data.amount } : a));
      return { ...state, allocations, status: statusAfterRelease(allocations) };
    }
    default:
      return state;
  }
}

function decide({ type, data }, state) {
  switch (type) {
    case 'CreateEscrow':
      if (state.status !== 'Empty') throw new ConflictError('ESCROW_ORDER_CONFLICT', `orderId ${data.orderId} was used already`);
      return { type: 'EscrowCreated', data };
    case 'ReleaseAllocation': {
      if (state.status === 'Empty' || state.merchantId !== data.requestedBy) throw new NotFoundError(`No escrow ${data.escrowId}`);
      const allocation = state.allocations.find((a) => a.merchantId === data.merchantId);
      const amount = releasable(allocation, data.amount);
      return { type: 'AllocationReleased', data: { merchantId: data.merchantId, amount, releasedAt: data.at } };
    }
    default:
      throw new Error(`unknown command ${type}`);
  }
}

const handle = DeciderCommandHandler({ decide, evolve, initialState });

/** The escrow as its merchant reads it, kept by the inline projection. */
const escrowView = pongoSingleStreamProjection({
  collectionName: 'escrows',
  canHandle: ['EscrowCreated', 'AllocationReleased'],
  evolve: (document, { type, data }) => {
    switch (type) {
      case 'EscrowCreated':
        return {
          ...data,
          status: 'PENDING',
          allocations: data.allocations.map((a) => ({ ...a, status: 'PENDING', released: 0, held: a.amount })),
          updatedAt: data.createdAt,
        };
      case 'AllocationReleased': {
        const allocations = document.allocations.map((a) => {
          if (a.merchantId !== data.merchantId) return a;
          const released = a.released + data.amount;
          return { ...a, released, held: a.amount - released, status: released === a.amount ? 'RELEASED' : 'PARTIALLY_RELEASED' };
        });
        return { ...document, allocations, status: statusAfterRelease(allocations), updatedAt: data.releasedAt };
      }
      default:
        return document;
    }
  },
});

async function main() {
  const eventStore = getPostgreSQLEventStore(process.env.DATABASE_URL, { projections: projections.inline([escrowView]) });
  await eventStore.schema.migrate();

  const app = Fastify({ logger: false, bodyLimit: 256 * 1024 });
  app.setErrorHandler((error, _request, reply) => {
    if (isExpectedVersionConflictError(error)) return reply.status(409).send({ status: 'error', code: 'CONCURRENT_MODIFICATION', message: error.message });
    const status = error.statusCode ?? 500;
    return reply.status(status).send({ status: 'error', code: error.code, message: status < 500 ? error.message : 'Internal error' });
  });

  app.post('/escrows', async (request, reply) => {
    const escrow = parseCreateEscrow(request.body);
    const escrowId = escrowIdFor(escrow.orderId);
    const data = { escrowId, merchantId: MERCHANT, ...escrow };
    try {
      await handle(eventStore, streamOf(escrowId), { type: 'CreateEscrow', data }, { expectedStreamVersion: STREAM_DOES_NOT_EXIST });
    } catch (error) {
      if (isExpectedVersionConflictError(error)) throw new ConflictError('ESCROW_ORDER_CONFLICT', `orderId ${escrow.orderId} was used already`);
      throw error;
    }
    return reply.status(201).send({ status: 'success', data: { escrowId, orderId: escrow.orderId, status: 'PENDING' } });
  });

  app.post('/escrows/:escrowId/release', async (request) => {
    const { merchantId, amount } = parseRelease(request.body);
    const { escrowId } = request.params;
    const command = { type: 'ReleaseAllocation', data: { escrowId, requestedBy: MERCHANT, merchantId, amount, at: new Date().toISOString() } };
    const { newState } = await handle(eventStore, streamOf(escrowId), command);
    return { status: 'success', data: { escrowId, status: newState.status, allocations: newState.allocations } };
  });

  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.stdout.write('peer ready\n');
  process.on('SIGTERM', () => app.close().then(() => eventStore.close()).then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
