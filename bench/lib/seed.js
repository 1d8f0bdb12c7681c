'use strict';
/** What the growth scenarios share to bulk-load a deployment's database straight in SQL. */
const { post } = require('./service');
const { ALLOCATIONS, escrowBody } = require('../load/payloads');

/** An escrow walked through its whole life through the API (created, paid, each allocation released): the template seeded copies follow. */
async function finishedEscrow(baseUrl, merchant, name) {
  const escrowId = (await post(baseUrl, '/v1/trdp/escrow/order', merchant.apiSecret, escrowBody(name))).data.escrowId;
  await post(baseUrl, `/v1/sandbox/orders/${escrowId}/complete`, merchant.apiSecret, { outcome: 'PAID' });
  for (const { merchantId } of ALLOCATIONS) await post(baseUrl, `/v1/trdp/escrow/${escrowId}/release`, merchant.apiSecret, { merchantId: merchant.payees[merchantId] });
  return escrowId;
}

/** A paid order of `amount` ETB (one line of baskets) of the merchant's, through the API: the money a seeded history starts from or copies. */
async function paidOrder(baseUrl, merchant, amount) {
  const body = {
    amount,
    currency: 'ETB',
    description: 'Bench order',
    customerName: 'Almaz Tesfaye',
    customerPhoneNumber: '+251911234567',
    items: [{ item_name: 'Injera baskets', quantity: 1, unit_price: amount }],
  };
  const orderId = (await post(baseUrl, '/v1/trdp/order', merchant.apiSecret, body)).data.order_id;
  await post(baseUrl, `/v1/sandbox/orders/${orderId}/complete`, merchant.apiSecret, { outcome: 'PAID' });
  return orderId;
}

/** Moves every follower's checkpoint to the head of the log, as if the projector and the dispatcher had long since applied what was seeded. */
async function moveFollowersToHead(deployment) {
  await deployment.query(
    `INSERT INTO projection_checkpoints (name, commit_position, prepare_position)
     SELECT name, e.transaction_id::text::numeric, e.global_position
     FROM unnest(ARRAY['read-models', 'callback-dispatcher']) name,
       (SELECT transaction_id, global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1) e
     ON CONFLICT (name) DO UPDATE SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position`,
  );
}

async function eventCount(deployment) {
  return Number((await deployment.query('SELECT count(*) AS n FROM events')).rows[0].n);
}

const label = (n) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

module.exports = { eventCount, finishedEscrow, label, moveFollowersToHead, paidOrder };
