'use strict';
const { fundedPlatform, get, latencySummary, merchantWithTemplates, projected, seedPayoutHistory, startsAtHead, timedPayout, transferIn } = require('../lib/payout-history');
const { scenarioResult } = require('../lib/result');
const { TEMPLATE_ENV } = require('../lib/payout-history');
const { Deployment } = require('../lib/service');

const HOUR_MS = 3_600_000;

/** `count` on-demand payouts, one after another, each of one santim transferred in first (untimed): each request's latency, as the merchant sees it. */
async function payoutLatencies(baseUrl, platform, merchant, count) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    await transferIn(baseUrl, platform, merchant);
    latencies.push(await timedPayout(baseUrl, merchant));
  }
  return latencySummary(latencies);
}

const row = (id, title, ours, reference, settings, notes = []) =>
  scenarioResult({
    id,
    title,
    unit: 'p99 ms',
    compare: 'lower',
    ours: { name: `${settings.longDays} days of payouts of ${settings.perDay} movements`, measured: { value: ours.p99, p50: ours.p50, p99: ours.p99 } },
    reference: { name: `${settings.shortDays} days`, measured: { value: reference.p99, p50: reference.p50, p99: reference.p99 } },
    target: 1.2,
    failures: (ours.non2xx ?? 0) + (ours.errors ?? 0) + (reference.non2xx ?? 0) + (reference.errors ?? 0),
    notes,
  });

/**
 * Per merchant (issue 28, item 4): a merchant with a year of daily payouts (each its own stream,
 * settling a day of movements) against one with a week, bulk-loaded as events and projected as they
 * would be live: a payout request, the payout settings and a one-hour statement must cost the same.
 */
module.exports = {
  id: 'growth-merchant',
  title: 'growth per merchant: a year of payouts against a week',
  async run(ctx) {
    const settings = ctx.settings.merchantGrowth;
    const { perDay, longDays, shortDays, payoutRequests } = settings;
    const deployment = await Deployment.create(ctx.resources, 'merchant');
    let api = await deployment.startApi(TEMPLATE_ENV);
    const platform = await fundedPlatform(api.baseUrl);
    const long = await merchantWithTemplates(api.baseUrl, platform, 'A year of payouts');
    const short = await merchantWithTemplates(api.baseUrl, platform, 'A week of payouts');
    await deployment.stopAll();

    const end = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    ctx.log(`  seeding ${longDays} and ${shortDays} days of ${perDay} transfers and a payout each`);
    await seedPayoutHistory(deployment, long, { days: longDays, perDay, end });
    await seedPayoutHistory(deployment, short, { days: shortDays, perDay, end });
    await startsAtHead(deployment, 'callback-dispatcher');
    api = await deployment.startApi();
    await projected(deployment, ctx.log);
    await deployment.query('VACUUM (ANALYZE)');
    await deployment.query('CHECKPOINT');

    const query = `from=${encodeURIComponent(new Date(end.getTime() - HOUR_MS).toISOString())}&to=${encodeURIComponent(end.toISOString())}`;
    const notes = [];
    for (const [name, { merchant }] of Object.entries({ year: long, week: short })) {
      const statement = await get(api.baseUrl, `/v1/trdp/statement?${query}`, merchant.apiSecret);
      // Counted in the view itself: the API lists payouts a page at a time.
      const { rows } = await deployment.query('SELECT count(*)::int AS payouts FROM payouts_view WHERE merchant_id = $1', [merchant.merchantId]);
      const { payouts } = rows[0];
      // The hour measured must hold the history's movements, and the payouts view the history's payouts.
      const days = name === 'year' ? longDays : shortDays;
      if (statement.movements.length === 0 || payouts !== days + 1) throw new Error(`the ${name} merchant's history is not in the read models: ${statement.movements.length} movements, ${payouts} payouts`);
      notes.push(`${name}: ${payouts} payouts, ${statement.movements.length} movements in the hour measured`);
    }

    const cannon = (merchant, workload, extra) => ctx.cannon(api.baseUrl, workload, { apiSecret: merchant.apiSecret, ...extra });
    const settingsWeek = await cannon(short.merchant, 'get', { path: '/v1/trdp/payout-settings' });
    const settingsYear = await cannon(long.merchant, 'get', { path: '/v1/trdp/payout-settings' });
    const statementWeek = await cannon(short.merchant, 'statement', { query });
    const statementYear = await cannon(long.merchant, 'statement', { query });
    const payoutWeek = await payoutLatencies(api.baseUrl, platform, short.merchant, payoutRequests);
    const payoutYear = await payoutLatencies(api.baseUrl, platform, long.merchant, payoutRequests);
    await deployment.stopAll();
    return [
      row('growth-merchant-payout', 'growth per merchant: POST payouts p99', payoutYear, payoutWeek, settings, [
        `${payoutRequests} payouts each, one after another, each of one santim transferred in first`,
        ...notes,
      ]),
      row('growth-merchant-settings', 'growth per merchant: GET payout-settings p99', settingsYear, settingsWeek, settings),
      row('growth-merchant-statement', 'growth per merchant: one-hour statement p99', statementYear, statementWeek, settings),
    ];
  },
};
