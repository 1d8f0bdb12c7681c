'use strict';
const { join } = require('node:path');
const { DATABASE_URL } = require('../lib/infrastructure');
const { runJson } = require('../lib/processes');
const { scenarioResult } = require('../lib/result');

const REBUILD = join(__dirname, '..', 'load', 'rebuild.js');

/**
 * Replays the log the earlier scenarios wrote (escrows created, paid, released) into fresh read
 * models, against only reading the same events table in pages. The service is stopped first.
 */
module.exports = {
  id: 'rebuild',
  title: 'projection rebuild',
  async run(ctx) {
    const main = await ctx.main();
    await main.deployment.stopAll();
    ctx.mainDeployment = undefined;
    const target = { url: DATABASE_URL, schema: main.deployment.schema };
    const reference = await runJson(REBUILD, { mode: 'raw', ...target });
    const ours = await runJson(REBUILD, { mode: 'ours', ...target });
    return scenarioResult({
      id: this.id,
      title: this.title,
      unit: 'events/s',
      ours: { name: `rebuild of ${ours.events} events`, measured: { value: ours.perSecond } },
      reference: { name: 'raw paged read of the events table', measured: { value: reference.perSecond } },
      target: 0.25,
    });
  },
};
