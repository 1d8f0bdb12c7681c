'use strict';
/**
 * A merchant's payout history bulk-loaded as events in their current shapes (transfers in, each day's
 * payout of its own stream with its PayoutBooked in the merchant's books), so that the projector builds
 * the ledger, the payouts and every other read model from them as it would live.
 */
const { waitFor } = require('./processes');
const { withClient, urlWithSchema } = require('./infrastructure');
const { paidOrder } = require('./seed');
const { post, registerMerchant } = require('./service');

const DAY_MS = 86_400_000;

/** While the templates are made: the sandbox answers at once and its payouts' outcomes are fetched soon, not after minutes. */
const TEMPLATE_ENV = { SANDBOX_DELAY_MS: '30', PROVIDER_RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '200' };

/** The ISO text the service writes in its events (`…T…Z`). */
const ISO = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function get(baseUrl, path, apiSecret) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-secret': apiSecret } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** A paid order of the platform's, through the API: the money its transfers to the merchants come from. */
async function fundedPlatform(baseUrl) {
  const platform = await registerMerchant(baseUrl, 'Bench platform');
  await paidOrder(baseUrl, platform, 2500);
  await waitFor(async () => (await get(baseUrl, '/v1/trdp/balance', platform.apiSecret)).available > 0, "the platform's order to be paid");
  return platform;
}

/**
 * One santim from the platform to the merchant, through the API; resolves once its ledger has it. The
 * merchant links itself to the platform first (POST /v1/trdp/platform-links): a platform credits a
 * registered merchant only through such a link.
 */
async function transferIn(baseUrl, platform, merchant) {
  await post(baseUrl, '/v1/trdp/platform-links', merchant.apiSecret, { platformId: platform.merchantId });
  const before = (await get(baseUrl, '/v1/trdp/balance', merchant.apiSecret)).available;
  const transferId = (await post(baseUrl, '/v1/trdp/transfers', platform.apiSecret, { to: merchant.merchantId, amount: 0.01, description: 'Bench sale' })).data.transferId;
  await waitFor(async () => (await get(baseUrl, '/v1/trdp/balance', merchant.apiSecret)).available > before, 'the transfer to reach the payable');
  return transferId;
}

/** Asks for a payout through the API and waits for the sandbox to pay it: the template the history copies. */
async function paidPayout(baseUrl, merchant) {
  const payoutId = (await post(baseUrl, '/v1/trdp/payouts', merchant.apiSecret, {})).data.payoutId;
  await waitFor(async () => (await get(baseUrl, `/v1/trdp/payouts/${payoutId}`, merchant.apiSecret)).status === 'PAID', 'the template payout to be paid');
  return payoutId;
}

/** A merchant with a payout destination, one transfer in and one payout paid, through the API: what its history copies. */
async function merchantWithTemplates(baseUrl, platform, name) {
  const merchant = await registerMerchant(baseUrl, name);
  await post(baseUrl, '/v1/trdp/payout-destination', merchant.apiSecret, { kind: 'bank', institution: '946', accountNumber: '1000123456789', holderName: name });
  const transferId = await transferIn(baseUrl, platform, merchant);
  const payoutId = await paidPayout(baseUrl, merchant);
  return { merchant, templates: { transferId, payoutId } };
}

/**
 * Appends `movements` copies of the template transfer (each a stream of its own, recorded evenly over
 * [from, from + spanMs)) in one transaction; returns the log position of the last, as a payout's range names it.
 */
async function appendTransfers(client, { merchantId, templates, tag, movements, from, spanMs }) {
  const { rows } = await client.query(
    `WITH template AS (SELECT stream_revision, event_type, data, metadata, hash FROM events WHERE stream_id = 'transfer-' || $1),
     copies AS (SELECT 'tr_' || md5($2 || '-' || g) AS id, $4::timestamptz + ((g - 0.5) * $5::float8 / $3::int) * interval '1 millisecond' AS at FROM generate_series(1, $3::int) g),
     new_streams AS (INSERT INTO streams (stream_id, revision) SELECT 'transfer-' || c.id, t.stream_revision FROM copies c, template t),
     moved AS (
       INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
       SELECT 'transfer-' || c.id, t.stream_revision, gen_random_uuid(), t.event_type,
         t.data || jsonb_build_object('transferId', c.id, 'destination', $6::text, 'createdAt', ${ISO('c.at')}), t.metadata, c.at, t.hash
       FROM copies c, template t ORDER BY c.at
       RETURNING transaction_id, global_position)
     SELECT transaction_id::text || '-' || max(global_position) AS through FROM moved GROUP BY transaction_id`,
    [templates.transferId, tag, movements, from, spanMs, merchantId],
  );
  return rows[0].through;
}

/**
 * Appends a copy of the template payout (requested, sent, paid) of `amount` santim settling the range
 * (after, through], at `at`, and its PayoutBooked at the books' revision `revision`, in one transaction.
 */
async function appendPayout(client, { merchantId, templates, payoutId, amount, after, through, at, revision }) {
  await client.query(
    `WITH template AS (SELECT stream_revision, event_type, data, metadata, hash FROM events WHERE stream_id = 'payout-' || $1),
     booked AS (SELECT metadata, hash FROM events WHERE stream_id = 'payout-books-' || $3 ORDER BY stream_revision LIMIT 1),
     new_stream AS (INSERT INTO streams (stream_id, revision) SELECT 'payout-' || $2, max(stream_revision) FROM template),
     payout AS (
       INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
       SELECT 'payout-' || $2, t.stream_revision, gen_random_uuid(), t.event_type,
         t.data || jsonb_build_object('payoutId', $2::text) || CASE t.event_type
           WHEN 'PayoutRequested' THEN jsonb_build_object('amount', $4::bigint, 'after', $5::text, 'through', $6::text, 'requestedAt', ${ISO('$7::timestamptz')})
           WHEN 'PayoutSent' THEN jsonb_build_object('providerReference', $2 || '-sent', 'sentAt', ${ISO('$7::timestamptz')})
           WHEN 'PayoutPaid' THEN jsonb_build_object('amount', $4::bigint, 'externalReferenceId', $2 || '-paid', 'paidAt', ${ISO('$7::timestamptz')})
           ELSE '{}'::jsonb END,
         t.metadata, $7::timestamptz + t.stream_revision * interval '1 second', t.hash
       FROM template t ORDER BY t.stream_revision),
     books AS (
       INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
       SELECT 'payout-books-' || $3, $8::bigint, gen_random_uuid(), 'PayoutBooked', jsonb_build_object('merchantId', $3::text, 'payoutId', $2::text, 'through', $6::text), b.metadata, $7::timestamptz, b.hash FROM booked b)
     UPDATE streams SET revision = $8::bigint WHERE stream_id = 'payout-books-' || $3`,
    [templates.payoutId, payoutId, merchantId, amount, after, through, at, revision],
  );
}

/**
 * `days` days of `perDay` transfers in, each day paid out at its end by one payout of its own
 * stream, ending at `end`: the merchant's books, ledger and payouts as a live year (or week) leaves them.
 */
async function seedPayoutHistory(deployment, { merchant, templates }, { days, perDay, end }) {
  const merchantId = merchant.merchantId;
  await withClient(async (client) => {
    let after = (await client.query(`SELECT data->>'through' AS through FROM events WHERE stream_id = 'payout-books-' || $1 ORDER BY stream_revision DESC LIMIT 1`, [merchantId])).rows[0].through;
    const unit = Number((await client.query(`SELECT data->>'amount' AS amount FROM events WHERE stream_id = 'transfer-' || $1`, [templates.transferId])).rows[0].amount);
    for (let day = 0; day < days; day++) {
      const from = new Date(end.getTime() - (days - day) * DAY_MS);
      // The day's payout goes at its very end, after its transfers: the hour before it holds the day's last movements.
      const through = await appendTransfers(client, { merchantId, templates, tag: `${merchantId}-${day}`, movements: perDay, from, spanMs: DAY_MS - 60_000 });
      const payoutId = `po_${merchantId.slice(-8)}${String(day).padStart(16, '0')}`;
      await appendPayout(client, { merchantId, templates, payoutId, amount: perDay * unit, after, through, at: new Date(from.getTime() + DAY_MS - 30_000), revision: day + 1 });
      after = through;
    }
  }, urlWithSchema(deployment.schema));
}

/** Unpaid movements only: `movements` transfers in after the merchant's last payout, recorded over the hour before `end`. */
async function seedUnpaidMovements(deployment, { merchant, templates }, { movements, end }) {
  return withClient(
    (client) => appendTransfers(client, { merchantId: merchant.merchantId, templates, tag: `${merchant.merchantId}-unpaid`, movements, from: new Date(end.getTime() - 3_600_000), spanMs: 3_600_000 }),
    urlWithSchema(deployment.schema),
  );
}

/** Nothing in a history long paid is for `follower` (the callback dispatcher): it starts at the log's head, as it would have long since. */
async function startsAtHead(deployment, follower) {
  await deployment.query(
    `INSERT INTO projection_checkpoints (name, commit_position, prepare_position)
     SELECT $1, transaction_id::text::numeric, global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1
     ON CONFLICT (name) DO UPDATE SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position`,
    [follower],
  );
}

/** One on-demand payout of the merchant's balance: the request's latency, ms. */
async function timedPayout(baseUrl, merchant) {
  const started = performance.now();
  await post(baseUrl, '/v1/trdp/payouts', merchant.apiSecret, {}, [201]);
  return performance.now() - started;
}

function latencySummary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p99: at(99) };
}

/** Waits for the projector to reach the log's head: the bulk-loaded history is in every read model. */
async function projected(deployment, log) {
  const head = async () => (await deployment.query(`SELECT transaction_id::text::numeric AS c, global_position AS p FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`)).rows[0];
  const target = await head();
  const started = Date.now();
  await waitFor(async () => {
    const { rows } = await deployment.query(`SELECT commit_position AS c, prepare_position AS p FROM projection_checkpoints WHERE name = 'read-models'`);
    return rows.length > 0 && (BigInt(rows[0].c) > BigInt(target.c) || (BigInt(rows[0].c) === BigInt(target.c) && BigInt(rows[0].p) >= BigInt(target.p)));
  }, 'the projector to build the read models of the history', 3_600_000, 200);
  log(`  projected the history in ${Math.round((Date.now() - started) / 1000)} s`);
}

module.exports = { TEMPLATE_ENV, fundedPlatform, get, latencySummary, merchantWithTemplates, paidPayout, projected, seedPayoutHistory, seedUnpaidMovements, startsAtHead, timedPayout, transferIn };
