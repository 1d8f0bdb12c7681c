import { BOOKS_ACCOUNTS, BOOKS_ACCOUNTS_SQL } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import { LEGACY_MODE_KEY, type Mode, streams } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { settleRunningBalances } from './ledger-running-balances';
import { keyedLookup } from '../projector/batch-reads';
import type { BatchContext, BatchRead, ReadRow, TableRow } from '../projector/projection';

type Query = Pick<SqlExecutor, 'query'>;

/** The deployment's legacy mode is kept among the tenants' under its decision's stream, a name no tenant has. */
const LEGACY = streams.deploymentModes(LEGACY_MODE_KEY);

/** Past this many tenants the kept modes are dropped and read again as needed: a bound on memory. */
const KEPT_TENANTS = 10_000;

/**
 * The tenants' modes the live projector keeps across its batches (BatchContext.kept). A mode, once known,
 * never changes: a tenant is registered once, with its mode (merchant.decider.ts), a seller account is
 * created once and takes its platform's, and a tenant from before modes has none (null, never kept)
 * until the one legacy decision gives it one (legacy-mode.decider.ts: the first decision stands). So a
 * kept mode is what ledger_tenant_modes holds, in any projector and after any rebuild.
 */
export function keptModes(context: BatchContext): Map<string, Mode> | undefined {
  return context.kept?.of('ledger tenant modes', () => new Map<string, Mode>());
}

/** The events that make a tenant's mode known (learn). */
const MODE_EVENTS: ReadonlySet<string> = new Set(['MerchantRegistered', 'AccountCreated', 'LegacyModeDecided']);

/**
 * Each tenant's mode as the ledger learns it from the log, in log order (docs/concepts/modes.md): a
 * registration's `mode`; a seller account its platform's; a registration from before modes `null`
 * until LegacyModeDecided gives every such tenant the deployment's legacy mode. That decision is
 * appended at the first start of the release that knew modes, after the history it decides, so an
 * entry of such a tenant is posted before its mode is known: to the books' accounts under their live
 * names, its entry's mode left null, until the decision moves it (decideLegacyEntries). The ledger
 * keeps these modes itself (ledger_tenant_modes) rather than read another view: a rebuild of it alone
 * sees what the live projector saw.
 */
export class LedgerTenantModes {
  private readonly changed = new Set<string>();
  /** The legacy mode decided in this batch: the entries posted before it are moved once the batch is written. */
  decidedInBatch?: Mode;

  private constructor(
    private readonly modes: Map<string, Mode | null>,
    private legacy: Mode | null,
    private readonly kept?: Map<string, Mode>,
  ) {}

  /**
   * The read of the modes the batch's tenants had before it: of those it names (`tenants`) but the ones
   * `kept`, and the legacy decision; none for a batch that makes no mode known and moves only the money
   * of tenants whose modes are kept (a payment's or a release's of a tenant seen before), or none at all.
   */
  static ask(events: readonly RecordedEvent[], tenants: readonly string[], kept?: ReadonlyMap<string, Mode>): BatchRead | undefined {
    const unknown = [...new Set(tenants)].filter((tenant) => !kept?.has(tenant));
    if (unknown.length === 0 && !events.some((event) => MODE_EVENTS.has(event.type))) return undefined;
    return { sql: `SELECT k.key AS tenant_id, v.mode FROM ${keyedLookup('ledger_tenant_modes', 'tenant_id', 'mode')}`, params: [JSON.stringify([...unknown, LEGACY])] };
  }

  /** The modes as `ask` read them, and those `kept` it did not read. */
  static from(rows: readonly ReadRow[], kept?: Map<string, Mode>): LedgerTenantModes {
    const modes = new Map(rows.map((row) => [row.tenant_id as string, row.mode as Mode | null]));
    const legacy = modes.get(LEGACY) ?? null;
    modes.delete(LEGACY);
    return new LedgerTenantModes(modes, legacy, kept);
  }

  /** The tenants whose modes an event makes known: a registration's, an account's (from its platform's), or all of the legacy ones. */
  learn(event: RecordedEvent): void {
    const data = event.data as { merchantId?: string; accountId?: string; mode?: Mode };
    if (event.type === 'MerchantRegistered') this.set(data.merchantId!, data.mode ?? this.legacy);
    else if (event.type === 'AccountCreated') this.set(data.accountId!, this.modeOf(data.merchantId!));
    else if (event.type === 'LegacyModeDecided' && this.legacy === null) {
      this.legacy = data.mode!;
      this.decidedInBatch = data.mode!;
      for (const [tenant, mode] of this.modes) if (mode === null) this.set(tenant, data.mode!);
    }
  }

  /** A tenant's mode; null while it is a tenant from before modes (or one the log never registered) and the legacy mode is not decided yet. */
  modeOf(tenantId: string): Mode | null {
    return this.modes.get(tenantId) ?? this.kept?.get(tenantId) ?? this.legacy;
  }

  /** Keeps the modes known once the batch is applied, for the projector's later batches (keptModes); null ones are not known yet. */
  keep(): void {
    if (!this.kept) return;
    if (this.kept.size > KEPT_TENANTS) this.kept.clear();
    for (const [tenant, mode] of this.modes) if (mode !== null) this.kept.set(tenant, mode);
  }

  private set(tenantId: string, mode: Mode | null): void {
    this.modes.set(tenantId, mode);
    this.changed.add(tenantId);
  }

  /** The rows the batch adds or changes. */
  rows(): TableRow[] {
    const rows: TableRow[] = [...this.changed].map((tenant) => ({ tenant_id: tenant, mode: this.modes.get(tenant) ?? null }));
    return this.decidedInBatch ? [...rows, { tenant_id: LEGACY, mode: this.decidedInBatch }] : rows;
  }
}

/** The tenants a batch's registrations name the platform of (an account takes its platform's mode). */
export function platformsNamed(events: readonly RecordedEvent[]): string[] {
  return events.filter((event) => event.type === 'AccountCreated').map((event) => (event.data as { merchantId: string }).merchantId);
}

/**
 * The legacy mode decided: every entry posted before its tenant's mode was known is that mode's. Its
 * lines on the books' accounts move from their live names to the mode's (nothing moves when the mode
 * is live), with the balances and running balances of both; every account and entry without a mode
 * gets it; so do the tenants. Run after the batch's own rows are written, on either write path.
 */
export async function decideLegacyEntries(db: Query, mode: Mode): Promise<void> {
  if (mode !== 'live') {
    const moved = await db.query<{ account: string; debit: string; credit: string; since: Date }>(
      `SELECT p.account, sum(p.debit)::text AS debit, sum(p.credit)::text AS credit, min(p.recorded_at) AS since
       FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.entry_id
       WHERE e.mode IS NULL AND ${BOOKS_ACCOUNTS_SQL.of('live', 'p.account')} GROUP BY p.account`,
    );
    for (const { account, debit, credit } of moved) {
      const to = BOOKS_ACCOUNTS.find((kind) => kind('live') === account)!(mode);
      await db.query(
        `UPDATE ledger_postings p SET account = $2 FROM ledger_entries e WHERE e.entry_id = p.entry_id AND e.mode IS NULL AND p.account = $1`,
        [account, to],
      );
      await db.query(`UPDATE ledger_balances SET debit = debit - $2::bigint, credit = credit - $3::bigint WHERE account = $1`, [account, debit, credit]);
      // Every posting it had was a legacy tenant's: the live account was never the live mode's.
      await db.query(`DELETE FROM ledger_balances WHERE account = $1 AND debit = 0 AND credit = 0`, [account]);
      await db.query(
        `INSERT INTO ledger_balances (account, debit, credit, mode) VALUES ($1, $2::bigint, $3::bigint, $4)
         ON CONFLICT (account) DO UPDATE SET debit = ledger_balances.debit + EXCLUDED.debit, credit = ledger_balances.credit + EXCLUDED.credit`,
        [to, debit, credit, mode],
      );
    }
    await settleRunningBalances(
      db,
      moved.flatMap(({ account, since }) => [
        { account, recorded_at: new Date(since) },
        { account: BOOKS_ACCOUNTS.find((kind) => kind('live') === account)!(mode), recorded_at: new Date(since) },
      ]),
    );
  }
  await db.query(`UPDATE ledger_entries SET mode = $1 WHERE mode IS NULL`, [mode]);
  await db.query(`UPDATE ledger_balances SET mode = $1 WHERE mode IS NULL`, [mode]);
  await db.query(`UPDATE ledger_tenant_modes SET mode = $1 WHERE mode IS NULL`, [mode]);
}
