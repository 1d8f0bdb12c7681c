/** The checks every chaos run reports, in their order (chaos/src/run-chaos.ts); a kind of run adds its own after them. */
export const CHECKS_OF_EVERY_RUN = [
  /^quiescence/,
  /^processes/,
  /^writes/,
  /^answers/,
  /^open work/,
  /^ledger/,
  /^payouts/,
  /^settlement/,
  /^accounts/,
  /^availability/,
  /^reversals/,
  /^work retries/,
  /^provider reconciliation/,
  /^callbacks/,
  /^integrity/,
  /^secrets/,
  /^test objects/,
  /^live balances/,
];

/** The names a run's report must list: every run's checks, then `own`. */
export const checkNames = (...own: RegExp[]) => [...CHECKS_OF_EVERY_RUN, ...own].map((name) => expect.stringMatching(name));
