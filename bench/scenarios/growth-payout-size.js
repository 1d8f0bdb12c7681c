'use strict';
const { fundedPlatform, get, latencySummary, merchantWithTemplates, projected, seedUnpaidMovements, startsAtHead, timedPayout } = require('../lib/payout-history');
const { scenarioResult } = require('../lib/result');
const { TEMPLATE_ENV } = require('../lib/payout-history');
const { Deployment } = require('../lib/service');

/** The movements endpoint's default page size. */
const PAGE = 10;

/**
 * A payout of a day of small orders against one of an ordinary day (issue 28, item 4): merchants
 * whose unpaid movements (bulk-loaded as transfer events, projected as live) number `large` or
 * `small` each ask for one payout; its request, its summary and the first page of its movements must
 * cost the same whatever it settles.
 */
module.exports = {
  id: 'growth-payout-size',
  title: 'growth per payout: a payout of many movements against one of few',
  async run(ctx) {
    const { large, small, payouts } = ctx.settings.payoutSize;
    const deployment = await Deployment.create(ctx.resources, 'payoutsize');
    let api = await deployment.startApi(TEMPLATE_ENV);
    const platform = await fundedPlatform(api.baseUrl);
    const merchants = { large: [], small: [] };
    for (let i = 0; i < payouts; i++) {
      for (const size of ['large', 'small']) merchants[size].push(await merchantWithTemplates(api.baseUrl, platform, `Payout of ${size} ${i + 1}`));
    }
    await deployment.stopAll();
    ctx.log(`  seeding ${payouts} merchants with ${large} unpaid movements and ${payouts} with ${small}`);
    const movements = { large, small };
    for (const size of ['large', 'small']) {
      for (const merchant of merchants[size]) await seedUnpaidMovements(deployment, merchant, { movements: movements[size], end: new Date() });
    }
    await startsAtHead(deployment, 'callback-dispatcher');
    api = await deployment.startApi();
    await projected(deployment, ctx.log);
    await deployment.query('VACUUM (ANALYZE)');
    await deployment.query('CHECKPOINT');

    // Each merchant's one payout, small and large in turn so that the machine's moods fall on both.
    const latencies = { large: [], small: [] };
    const payoutIds = { large: [], small: [] };
    for (let i = 0; i < payouts; i++) {
      for (const size of ['small', 'large']) {
        const { merchant } = merchants[size][i];
        latencies[size].push(await timedPayout(api.baseUrl, merchant));
        const { payouts: [newest] } = await get(api.baseUrl, '/v1/trdp/payouts?limit=1', merchant.apiSecret);
        if (Math.round(newest.amount * 100) !== movements[size]) throw new Error(`the ${size} payout pays ${newest.amount} ETB, not its ${movements[size]} movements of one santim`);
        payoutIds[size].push(newest.payoutId);
      }
    }
    const first = (size) => ({ merchant: merchants[size][0].merchant, payoutId: payoutIds[size][0] });
    const page = await get(api.baseUrl, `/v1/trdp/payouts/${first('large').payoutId}/movements`, first('large').merchant.apiSecret);
    if (page.movements.length !== Math.min(PAGE, large) || page.hasMore !== large > PAGE) throw new Error(`the large payout's first page: ${page.movements.length} movements, hasMore ${page.hasMore}`);
    const cannon = (size, path) => ctx.cannon(api.baseUrl, 'get', { apiSecret: first(size).merchant.apiSecret, path: path(first(size).payoutId) });
    const summary = (id) => `/v1/trdp/payouts/${id}`;
    // The first page as a client reads it first: the default limit.
    const firstPage = (id) => `/v1/trdp/payouts/${id}/movements`;
    const summaries = { small: await cannon('small', summary), large: await cannon('large', summary) };
    const pages = { small: await cannon('small', firstPage), large: await cannon('large', firstPage) };
    await deployment.stopAll();

    const row = (id, title, measured, notes = []) =>
      scenarioResult({
        id,
        title,
        unit: 'p99 ms',
        compare: 'lower',
        ours: { name: `a payout of ${large} movements`, measured: { value: measured.large.p99, p50: measured.large.p50, p99: measured.large.p99 } },
        reference: { name: `a payout of ${small}`, measured: { value: measured.small.p99, p50: measured.small.p50, p99: measured.small.p99 } },
        target: 1.2,
        failures: ['large', 'small'].reduce((n, size) => n + (measured[size].non2xx ?? 0) + (measured[size].errors ?? 0), 0),
        notes,
      });
    return [
      row('growth-payout-request', 'growth per payout: POST payouts p99', { large: latencySummary(latencies.large), small: latencySummary(latencies.small) }, [`${payouts} payouts of each size, one request each`]),
      row('growth-payout-summary', 'growth per payout: GET payout p99', summaries),
      row('growth-payout-movements', 'growth per payout: first page of movements p99', pages),
    ];
  },
};
