import type { Client } from 'pg';

interface Backlog {
  events: number;
  unprojected: number;
  undispatched: number;
  pending_callbacks: number;
  pending_refunds: number;
  overdue_expiries: number;
  scheduled_releases: number;
  open_payouts: number;
}

const behind = (checkpoint: string) => `
  (SELECT count(*)::int FROM events e
    WHERE (e.transaction_id::text::numeric, e.global_position::numeric) >
          (COALESCE((SELECT commit_position FROM projection_checkpoints WHERE name = '${checkpoint}'), -1),
           COALESCE((SELECT prepare_position FROM projection_checkpoints WHERE name = '${checkpoint}'), -1)))`;

/** What the service still has to do, read from its tables: the projector's and the callback outbox's lag, and open work. */
const BACKLOG = `
  SELECT (SELECT count(*)::int FROM events) AS events,
         ${behind('read-models')} AS unprojected,
         ${behind('callback-dispatcher')} AS undispatched,
         (SELECT count(*)::int FROM callback_deliveries_view WHERE status = 'PENDING') AS pending_callbacks,
         (SELECT count(*)::int FROM provider_operations WHERE kind = 'refund' AND status = 'OPEN') AS pending_refunds,
         (SELECT count(*)::int FROM payables_view WHERE status = 'PENDING' AND expires_at < now()) AS overdue_expiries,
         (SELECT count(*)::int FROM payables_view WHERE auto_release_at IS NOT NULL) AS scheduled_releases,
         (SELECT count(*)::int FROM payouts_view WHERE status IN ('REQUESTED', 'SENT')) AS open_payouts`;

/**
 * Waits until the service has nothing left to do: every event projected and dispatched, no callback
 * pending, no refund open, no expiry overdue, no automatic release still to come (the workload sets them
 * seconds ahead: one due after the evidence was read would move money the checks never saw), and the log
 * unchanged for a few seconds (the sandbox's answers arrive a moment after a payment starts). Returns the last backlog when it gives up;
 * every 30 s meanwhile it logs the backlog, so that a patient run waiting for good says on what.
 */
export async function waitForQuiescence(db: Client, timeoutMs: number, log: (line: string) => void): Promise<{ quiet: boolean; backlog: Backlog; waitedMs: number }> {
  const started = Date.now();
  let told = started;
  let stableSince = 0;
  let lastEvents = -1;
  let backlog: Backlog;
  for (;;) {
    backlog = (await db.query<Backlog>(BACKLOG)).rows[0];
    const idle = backlog.unprojected + backlog.undispatched + backlog.pending_callbacks + backlog.pending_refunds + backlog.overdue_expiries + backlog.scheduled_releases + backlog.open_payouts === 0;
    if (!idle || backlog.events !== lastEvents) stableSince = Date.now();
    lastEvents = backlog.events;
    if (idle && Date.now() - stableSince >= 3000) return { quiet: true, backlog, waitedMs: Date.now() - started };
    if (Date.now() - started > timeoutMs) return { quiet: false, backlog, waitedMs: Date.now() - started };
    if (Date.now() - told >= 30_000) {
      told = Date.now();
      log(`still settling after ${Math.round((told - started) / 1000)} s: ${JSON.stringify(backlog)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
