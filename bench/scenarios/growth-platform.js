'use strict';
const { createServer } = require('node:http');
const { get, latencySummary, projected, startsAtHead, TEMPLATE_ENV } = require('../lib/payout-history');
const { waitFor } = require('../lib/processes');
const { scenarioResult } = require('../lib/result');
const { Deployment, inParallel, post, registerMerchant } = require('../lib/service');

/** What each seeded escrow holds for its one seller, ETB: released, so every seller has money to pay out. */
const SALE = 100;

/**
 * A `*` webhook endpoint in this process: records when each callback arrives, so that the delay from a
 * request's answer to the callback of the event it wrote can be taken by an id the callback's body names.
 */
async function startEndpoint() {
  const waiting = new Map();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const arrived = performance.now();
      const body = Buffer.concat(chunks).toString();
      for (const [id, resolve] of waiting) {
        if (body.includes(id)) {
          waiting.delete(id);
          resolve(arrived);
        }
      }
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    /** Resolves with the instant the first callback naming `id` arrives; rejects after a minute without one. */
    arrivalOf: (id) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no callback naming ${id} within a minute`)), 60_000);
        waiting.set(id, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A platform's seller, onboarded through the API: verified at once by the sandbox (an individual with a TIN) and with a payout destination. */
async function onboard(baseUrl, platform, name) {
  const accountId = (await post(baseUrl, '/v1/trdp/accounts', platform.apiSecret, { name, type: 'individual', tin: '0000000001' })).data.accountId;
  await postAs(baseUrl, platform, accountId, '/v1/trdp/payout-destination', { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName: name });
  return accountId;
}

/** A JSON POST as the platform acting for one of its accounts (x-account-id); throws unless it answers 2xx. */
async function postAs(baseUrl, platform, accountId, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret': platform.apiSecret, 'x-account-id': accountId },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`POST ${path} for ${accountId}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

async function getAs(baseUrl, platform, accountId, path) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-secret': platform.apiSecret, 'x-account-id': accountId } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} for ${accountId}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** An escrow of one allocation of SALE ETB to the seller, paid and released through the API: the escrow the seeded ones copy. */
async function releasedEscrow(baseUrl, platform, sellerId, orderId) {
  const body = {
    orderId,
    amount: SALE,
    currency: 'ETB',
    customerName: 'Abebe Kebede',
    customerPhoneNumber: '0911234567',
    description: 'Marketplace order',
    items: [{ productId: 'sku-1', item_name: 'Coffee 1kg', quantity: 1, unit_price: SALE }],
    allocations: [{ merchantId: sellerId, amount: SALE }],
  };
  const escrowId = (await post(baseUrl, '/v1/trdp/escrow/order', platform.apiSecret, body)).data.escrowId;
  await post(baseUrl, `/v1/sandbox/orders/${escrowId}/complete`, platform.apiSecret, { outcome: 'PAID' });
  await waitFor(async () => (await get(baseUrl, `/v1/trdp/escrow/${escrowId}`, platform.apiSecret)).status === 'HELD', 'the template escrow to be paid');
  await post(baseUrl, `/v1/trdp/escrow/${escrowId}/release`, platform.apiSecret, { merchantId: sellerId });
  await waitFor(async () => (await getAs(baseUrl, platform, sellerId, '/v1/trdp/balance')).available >= SALE, 'the release in the seller’s balance');
  return escrowId;
}

/**
 * A seller that owes the platform: a sale released and paid out, then returned (a reversal with its fee),
 * which takes the seller below zero, as test/e2e/marketplace-walkthrough.spec.ts walks it.
 */
async function debtor(baseUrl, platform, sellerId, tag) {
  const escrowId = await releasedEscrow(baseUrl, platform, sellerId, `debt-${tag}`);
  const { payoutId } = await postAs(baseUrl, platform, sellerId, '/v1/trdp/payouts', {});
  await waitFor(async () => (await getAs(baseUrl, platform, sellerId, `/v1/trdp/payouts/${payoutId}`)).status === 'PAID', 'the debtor’s payout to be paid');
  await post(baseUrl, `/v1/trdp/escrow/${escrowId}/reversals`, platform.apiSecret, { merchantId: sellerId, reason: 'Returned', refundFee: true });
  await waitFor(async () => (await getAs(baseUrl, platform, sellerId, '/v1/trdp/balance')).available < 0, 'the debtor below zero');
}

/**
 * `count` copies of the template escrow's events (every stream its life wrote: its id, its order id and
 * its seller replaced in each), the i-th for `sellers[i % sellers.length]`, recorded over the day before
 * now in one transaction, so that the projector builds every read model from them as it would live.
 */
async function seedEscrows(deployment, { templateId, orderId, sellerId }, { tag, count, sellers }) {
  await deployment.query(
    `WITH template AS (
       SELECT stream_id, stream_revision, event_type, data::text AS data, metadata, hash, global_position FROM events
       WHERE stream_id LIKE '%' || $1 || '%'),
     copies AS (
       SELECT g, left($1, 4) || left(md5($4 || '-' || g), length($1) - 4) AS id, $2 || '-' || g AS order_id, ($6::text[])[1 + g % cardinality($6::text[])] AS seller,
         now() - interval '1 day' + g * interval '1 millisecond' AS at
       FROM generate_series(1, $5::int) g),
     new_streams AS (
       INSERT INTO streams (stream_id, revision)
       SELECT replace(t.stream_id, $1, c.id), max(t.stream_revision) FROM copies c, template t GROUP BY 1)
     INSERT INTO events (stream_id, stream_revision, event_id, event_type, data, metadata, recorded_at, hash)
     SELECT replace(t.stream_id, $1, c.id), t.stream_revision, gen_random_uuid(), t.event_type,
       replace(replace(replace(t.data, $1, c.id), $2, c.order_id), $3, c.seller)::jsonb, t.metadata, c.at, t.hash
     FROM copies c, template t ORDER BY c.g, t.global_position`,
    [templateId, orderId, sellerId, tag, count, sellers],
  );
}

/**
 * A big platform against a small one (issue 41, item 5): one with many sellers and escrows, one with few,
 * the same escrows per seller, bulk-loaded as events and projected as live, then vacuumed and analysed.
 * Each read a platform or its seller makes, the callback of a seller's payout to the platform's `*`
 * endpoint, and the payout itself must cost the same on both.
 */
module.exports = {
  id: 'growth-platform',
  title: 'growth per platform: many sellers and escrows against few',
  async run(ctx) {
    const settings = ctx.settings.platformGrowth;
    const sizes = { big: settings.big, small: settings.small };
    const endpoint = await startEndpoint();
    const deployment = await Deployment.create(ctx.resources, 'platform');
    try {
      let api = await deployment.startApi(TEMPLATE_ENV);
      const platforms = {};
      for (const [size, { sellers }] of Object.entries(sizes)) {
        const platform = await registerMerchant(api.baseUrl, `Platform ${size}`);
        await post(api.baseUrl, '/v1/trdp/webhook-endpoints', platform.apiSecret, { url: endpoint.url, events: ['*'] });
        ctx.log(`  onboarding the ${size} platform's ${sellers} sellers`);
        // Its first seller owes, the oldest: a page of debtors read newest first must pass every other seller to reach it.
        const ids = [await onboard(api.baseUrl, platform, `${size} seller 0`)];
        await debtor(api.baseUrl, platform, ids[0], size);
        const rest = new Array(sellers - 1);
        await inParallel(sellers - 1, 8, async (i) => {
          rest[i] = await onboard(api.baseUrl, platform, `${size} seller ${i + 1}`);
        });
        ids.push(...rest);
        const orderId = `platform-${size}-template`;
        const templateId = await releasedEscrow(api.baseUrl, platform, ids[1], orderId);
        platforms[size] = { platform, sellers: ids, template: { templateId, orderId, sellerId: ids[1] } };
      }
      await deployment.stopAll();

      for (const [size, { escrows }] of Object.entries(sizes)) {
        ctx.log(`  seeding the ${size} platform's ${escrows} released escrows`);
        // Every seller but the debtor sells: the copies go round them, the template's seller included.
        await seedEscrows(deployment, platforms[size].template, { tag: size, count: escrows - 1, sellers: platforms[size].sellers.slice(1) });
      }
      // Nothing seeded is for the callbacks: the dispatcher starts past it, as it would have long since.
      await startsAtHead(deployment, 'callback-dispatcher');
      api = await deployment.startApi();
      await projected(deployment, ctx.log);
      await deployment.query('VACUUM (ANALYZE)');
      await deployment.query('CHECKPOINT');

      const notes = [];
      for (const [size, { platform, sellers }] of Object.entries(platforms)) {
        const { rows } = await deployment.query(`SELECT count(*)::int AS escrows FROM payables_view WHERE merchant_id = $1 AND kind = 'escrow'`, [platform.merchantId]);
        const debtors = (await get(api.baseUrl, '/v1/trdp/accounts?balance=negative', platform.apiSecret)).accounts.map((a) => a.accountId);
        if (rows[0].escrows !== sizes[size].escrows + 1 || debtors.join() !== sellers[0]) {
          throw new Error(`the ${size} platform is not in the read models: ${rows[0].escrows} escrows, debtors ${debtors.join() || 'none'}`);
        }
        notes.push(`${size}: ${sellers.length} sellers (one owing), ${rows[0].escrows} escrows`);
      }

      // A seller in the middle of each platform's: the ones measured are neither its first nor its last.
      const seller = (size) => platforms[size].sellers[Math.floor(platforms[size].sellers.length / 2)];
      const cannon = (size, path, asSeller) =>
        ctx.cannon(api.baseUrl, 'get', { apiSecret: platforms[size].platform.apiSecret, path, ...(asSeller ? { accountId: seller(size) } : {}) });
      // Small then big for each read, so that the machine's moods fall on both sides of each ratio.
      const measure = async (path, asSeller) => ({ small: await cannon('small', path, asSeller), big: await cannon('big', path, asSeller) });
      const reads = {
        balance: await measure('/v1/trdp/balance', true),
        accounts: await measure('/v1/trdp/accounts'),
        negative: await measure('/v1/trdp/accounts?balance=negative'),
        sellerEscrows: await measure('/v1/trdp/escrows', true),
        platformEscrows: await measure('/v1/trdp/escrows'),
        events: await measure('/v1/trdp/events'),
      };

      // One payout of each of `payouts` sellers per platform, in turn, and the delay until its callback reaches the platform's `*` endpoint.
      const payouts = { small: [], big: [] };
      const fanOut = { small: [], big: [] };
      for (let i = 1; i <= settings.payouts; i++) {
        for (const size of ['small', 'big']) {
          const { platform, sellers } = platforms[size];
          const started = performance.now();
          const { payoutId } = await postAs(api.baseUrl, platform, sellers[i], '/v1/trdp/payouts', {});
          const answered = performance.now();
          payouts[size].push(answered - started);
          fanOut[size].push((await endpoint.arrivalOf(payoutId)) - answered);
        }
      }
      await deployment.stopAll();

      const row = (id, title, measured, rowNotes = []) =>
        scenarioResult({
          id,
          title,
          unit: 'p99 ms',
          compare: 'lower',
          ours: { name: `${sizes.big.sellers} sellers, ${sizes.big.escrows} escrows`, measured: { value: measured.big.p99, p50: measured.big.p50, p99: measured.big.p99 } },
          reference: { name: `${sizes.small.sellers} sellers, ${sizes.small.escrows}`, measured: { value: measured.small.p99, p50: measured.small.p50, p99: measured.small.p99 } },
          target: 1.2,
          failures: ['big', 'small'].reduce((n, size) => n + (measured[size].non2xx ?? 0) + (measured[size].errors ?? 0), 0),
          notes: rowNotes,
        });
      const summary = (latencies) => ({ small: latencySummary(latencies.small), big: latencySummary(latencies.big) });
      return [
        row('growth-platform-balance', "growth per platform: a seller's balance p99", reads.balance, notes),
        row('growth-platform-accounts', 'growth per platform: accounts list p99', reads.accounts),
        row('growth-platform-accounts-negative', 'growth per platform: accounts list, balance=negative p99', reads.negative),
        row('growth-platform-seller-escrows', "growth per platform: a seller's escrows list p99", reads.sellerEscrows),
        row('growth-platform-escrows', "growth per platform: the platform's escrows list p99", reads.platformEscrows),
        row('growth-platform-events', 'growth per platform: events API page p99', reads.events),
        row('growth-platform-webhook', 'growth per platform: a payout’s callback to a * endpoint p99', summary(fanOut), [
          `from the payout's answer to its callback's arrival, ${settings.payouts} payouts each`,
        ]),
        row('growth-platform-payout', "growth per platform: POST payouts of a seller p99", summary(payouts), [`${settings.payouts} sellers' payouts each, one after another`]),
      ];
    } finally {
      await endpoint.close();
    }
  },
};
