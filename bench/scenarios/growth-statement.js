'use strict';
const { waitFor } = require('../lib/processes');
const { scenarioResult } = require('../lib/result');
const { paidOrder } = require('../lib/seed');
const { Deployment, registerMerchant } = require('../lib/service');

const HOUR_MS = 3_600_000;

/**
 * A merchant's history of `days` days of `perDay` paid orders ending at `end`, straight in SQL, fast:
 * copies of the template order's ledger entries and postings, evenly spread in time. Their running
 * balances are filled as migration 012 fills postings already there. The log itself is left alone:
 * a statement reads the ledger's read model only.
 */
async function seedHistory(deployment, orderId, days, perDay, end) {
  const copies = days * perDay;
  await deployment.query(
    `WITH template AS (SELECT * FROM ledger_entries WHERE stream_id = 'order-' || $1),
     copies AS (SELECT g, $3::timestamptz - (($2::int - g) + 0.5) * $4::float8 * interval '1 second' AS at FROM generate_series(1, $2::int) g),
     entries AS (
       INSERT INTO ledger_entries (entry_id, event_id, stream_id, event_type, commit_position, prepare_position, recorded_at, description)
       SELECT 'seed-' || c.g || '-' || t.entry_id, 'seed-' || c.g || '-' || t.event_id, t.stream_id || '-' || c.g, t.event_type, 0, c.g, c.at, t.description
       FROM copies c, template t)
     INSERT INTO ledger_postings (entry_id, line, account, debit, credit, commit_position, prepare_position, recorded_at)
     SELECT 'seed-' || c.g || '-' || p.entry_id, p.line, p.account, p.debit, p.credit, 0, c.g, c.at
     FROM copies c, ledger_postings p WHERE p.entry_id IN (SELECT entry_id FROM template)`,
    [orderId, copies, end, 86_400 / perDay],
  );
  await deployment.query(
    `UPDATE ledger_postings p SET running_balance = s.running_balance
     FROM (SELECT entry_id, line, sum(credit - debit) OVER (PARTITION BY account ORDER BY recorded_at, commit_position, prepare_position, line) AS running_balance
           FROM ledger_postings WHERE account IN (SELECT account FROM ledger_postings WHERE entry_id IN (SELECT entry_id FROM ledger_entries WHERE stream_id = 'order-' || $1))) s
     WHERE p.entry_id = s.entry_id AND p.line = s.line`,
    [orderId],
  );
}

/**
 * A one-hour statement's p99 for a merchant with a year of history against one with a week: the
 * opening balance must not be summed over the history before the hour. Both hours hold the same
 * orders per hour; only what came before differs.
 */
module.exports = {
  id: 'growth-statement',
  title: 'growth: one-hour statement p99',
  async run(ctx) {
    const { perDay, longDays, shortDays } = ctx.settings.statementGrowth;
    const deployment = await Deployment.create(ctx.resources, 'statement');
    let api = await deployment.startApi();
    const merchants = { long: await registerMerchant(api.baseUrl, 'A year of trading'), short: await registerMerchant(api.baseUrl, 'A week of trading') };
    const orders = { long: await paidOrder(api.baseUrl, merchants.long, 250.75), short: await paidOrder(api.baseUrl, merchants.short, 250.75) };
    const end = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    const query = `from=${encodeURIComponent(new Date(end.getTime() - HOUR_MS).toISOString())}&to=${encodeURIComponent(end.toISOString())}`;
    await waitFor(
      async () => {
        const { rows } = await deployment.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE stream_id = ANY($1::text[]) AND event_type = 'OrderPaid'`, [
          Object.values(orders).map((id) => `order-${id}`),
        ]);
        return rows[0].n === 2;
      },
      'the projector to post the template orders',
    );
    await deployment.stopAll();
    ctx.log(`  seeding ${longDays * perDay} and ${shortDays * perDay} paid orders' ledger entries`);
    await seedHistory(deployment, orders.long, longDays, perDay, end);
    await seedHistory(deployment, orders.short, shortDays, perDay, end);
    await deployment.query('VACUUM (ANALYZE) ledger_entries, ledger_postings');
    await deployment.query('CHECKPOINT');
    api = await deployment.startApi();
    const notes = [];
    for (const [name, merchant] of Object.entries(merchants)) {
      const response = await fetch(`${api.baseUrl}/v1/trdp/statement?${query}`, { headers: { 'x-api-secret': merchant.apiSecret } });
      const { data } = await response.json();
      // The hour measured must hold the seeded orders, and the year's opening what came before it.
      if (response.status !== 200 || data.movements.length === 0 || !(data.opening > 0)) throw new Error(`the ${name} merchant's statement: ${response.status} ${JSON.stringify(data)}`);
      notes.push(`${name} history: ${data.movements.length} movements in the hour, opening ${data.opening} ETB`);
    }
    const measure = (merchant) => ctx.cannon(api.baseUrl, 'statement', { apiSecret: merchant.apiSecret, query });
    const reference = await measure(merchants.short);
    const ours = await measure(merchants.long);
    await deployment.stopAll();
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'p99 ms',
      compare: 'lower',
      ours: { name: `${longDays} days of ${perDay} orders before the hour`, measured: { value: ours.p99, p50: ours.p50, p99: ours.p99 } },
      reference: { name: `${shortDays} days of ${perDay} orders`, measured: { value: reference.p99, p50: reference.p50, p99: reference.p99 } },
      target: 1.2,
      failures: ours.non2xx + ours.errors + reference.non2xx + reference.errors,
      notes,
    });
  },
};
