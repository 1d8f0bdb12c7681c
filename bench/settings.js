'use strict';
/** How long and how much each mode measures. Full: under 10 minutes; quick: under 2; smoke: seconds (npm test). */
module.exports = {
  full: {
    connections: 50,
    warmupSeconds: 5,
    durationSeconds: 15,
    appendWriters: 50,
    appendWarmupSeconds: 3,
    appendSeconds: 10,
    callbacks: 3000,
    growth: { small: 10_000, large: 1_000_000 },
    // A merchant of a year of daily trading against one of a week, the same orders per hour.
    statementGrowth: { perDay: 200, longDays: 365, shortDays: 7 },
    // A merchant's year of daily payouts against its week (issue 28): payouts of their own streams, timed one request after another.
    merchantGrowth: { perDay: 200, longDays: 365, shortDays: 7, payoutRequests: 50 },
    // One payout settling a day of small orders against one of an ordinary day; `payouts` merchants of each, one payout each.
    payoutSize: { large: 20_000, small: 200, payouts: 5 },
    // A platform of many sellers against one of few, the same escrows per seller (issue 41); `payouts` sellers of each paid out.
    platformGrowth: { big: { sellers: 1000, escrows: 20_000 }, small: { sellers: 10, escrows: 200 }, payouts: 9 },
    peerLifecycles: { warmup: 300, measured: 2000 },
    // The rebuild run alone writes its log first (lifecycles for this long); after the other scenarios it needs none.
    rebuildLogSeconds: 15,
  },
  quick: {
    connections: 50,
    warmupSeconds: 1,
    durationSeconds: 3,
    appendWriters: 50,
    appendWarmupSeconds: 1,
    appendSeconds: 3,
    callbacks: 150,
    growth: { small: 1_000, large: 20_000 },
    statementGrowth: { perDay: 200, longDays: 60, shortDays: 7 },
    merchantGrowth: { perDay: 200, longDays: 60, shortDays: 7, payoutRequests: 20 },
    payoutSize: { large: 5_000, small: 200, payouts: 3 },
    platformGrowth: { big: { sellers: 200, escrows: 4_000 }, small: { sellers: 10, escrows: 200 }, payouts: 5 },
    peerLifecycles: { warmup: 100, measured: 400 },
    rebuildLogSeconds: 15,
  },
  smoke: {
    connections: 4,
    warmupSeconds: 1,
    durationSeconds: 1,
    // A count rather than the second: a machine busy with the test suite may answer none in a second.
    requests: 20,
    appendWriters: 4,
    appendWarmupSeconds: 0,
    appendSeconds: 1,
    callbacks: 10,
    growth: { small: 100, large: 300 },
    statementGrowth: { perDay: 24, longDays: 10, shortDays: 2 },
    merchantGrowth: { perDay: 24, longDays: 6, shortDays: 2, payoutRequests: 2 },
    payoutSize: { large: 100, small: 10, payouts: 1 },
    platformGrowth: { big: { sellers: 12, escrows: 60 }, small: { sellers: 3, escrows: 15 }, payouts: 1 },
    peerLifecycles: { warmup: 1, measured: 5 },
    rebuildLogSeconds: 1,
  },
};
