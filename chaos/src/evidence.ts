import type { RecordingClient } from './client';
import { partyModes, type PartyModes } from './checks-modes';
import type { AccountBalanceSnapshot, EscrowSnapshot, IntegritySnapshot, LedgerEntrySnapshot, LedgerSnapshot, LoggedEvent, PayoutReportSnapshot } from './records';
import type { ChaosMerchant } from './workload';

export interface Evidence {
  events: LoggedEvent[];
  ledger: LedgerSnapshot;
  escrows: EscrowSnapshot[];
  integrity: IntegritySnapshot;
  /** Each payout's reconciliation report, as its merchant downloads it. */
  payoutReports: PayoutReportSnapshot[];
  /** Each seller account's balance, as its platform reads it. */
  accountBalances: AccountBalanceSnapshot[];
  /** The run's parties by mode: its tenants, and the accounts each created. */
  parties: PartyModes;
  /** Every posting on a live party's ledger accounts. */
  liveEntries: LedgerEntrySnapshot[];
}

/** Reads what the checks judge through the audit API, as an auditor would (each mode's books the run's tenants use, side by side) (and through the recording client, so these responses are searched for secrets too). */
export async function collectEvidence(
  client: RecordingClient,
  auditorKey: string,
  merchants: ChaosMerchant[],
  tenants: readonly { merchantId: string; mode: 'test' | 'live' }[],
): Promise<Evidence> {
  const get = async (path: string, headers: Record<string, string> = { 'x-auditor-key': auditorKey }) => {
    const reply = await client.send({ kind: 'read', method: 'GET', path, headers });
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status ?? 'nothing'}`);
    return reply.body.data;
  };
  const events: LoggedEvent[] = [];
  for (let after = ''; ; ) {
    const page = await get(`/v1/audit/events?limit=1000${after ? `&after=${after}` : ''}`);
    events.push(...page.events);
    if (!page.next) break;
    after = page.next;
  }
  const escrowIds = events.filter((e) => e.type === 'EscrowCreated').map((e) => e.streamId.slice('escrow-'.length));
  const escrows = (await inBatches(escrowIds, (id) => get(`/v1/audit/escrows/${id}`))).map((data) => data.escrow as EscrowSnapshot);
  // A payee's reads: a merchant's with its own key, an account's with its platform's, acting for it.
  const readsFor = new Map<string, Record<string, string>>();
  for (const m of merchants) {
    readsFor.set(m.merchantId, { 'x-api-secret': m.apiSecret });
    for (const seller of m.sellers) readsFor.set(seller.accountId, { 'x-api-secret': m.apiSecret, 'x-account-id': seller.accountId });
  }
  const requested = events.filter((e) => e.type === 'PayoutRequested').map((e) => e.data as { merchantId: string; payoutId: string });
  const payoutReports: PayoutReportSnapshot[] = await inBatches(requested, async ({ merchantId, payoutId }) => {
    const report = await get(`/v1/trdp/payouts/${payoutId}/report`, readsFor.get(merchantId) ?? {});
    return { payoutId, amount: report.amount, linesPaid: report.lines.map((line: { paid: number }) => line.paid) };
  });
  const sellers = merchants.flatMap((m) => m.sellers);
  const accountBalances = await inBatches(sellers, async ({ accountId }) => {
    const { available, onHold } = (await get('/v1/trdp/balance', readsFor.get(accountId)!)) as { available: number; onHold: number };
    return { accountId, available, onHold };
  });
  // Each mode's books read apart, as the audit API answers them, then laid side by side: their accounts' names differ.
  const modes = [...new Set(tenants.map((t) => t.mode))].sort();
  const books = (await Promise.all(modes.map((mode) => get(`/v1/audit/ledger/trial-balance?mode=${mode}`)))) as Omit<LedgerSnapshot, 'modes'>[];
  const ledger: LedgerSnapshot = {
    modes,
    balanced: books.every((b) => b.balanced),
    totalDebits: books.reduce((sum, b) => sum + b.totalDebits, 0),
    totalCredits: books.reduce((sum, b) => sum + b.totalCredits, 0),
    accounts: books.flatMap((b) => b.accounts),
  };
  const parties = partyModes(tenants, events);
  // A party's accounts name it (merchant:{id}:payable, …); read whole, as an auditor's account statement.
  const liveAccounts = ledger.accounts.map((a) => a.account).filter((account) => account.split(':').some((part) => parties.live.has(part)));
  const liveEntries = (
    await inBatches(liveAccounts, async (account) =>
      ((await get(`/v1/audit/ledger/accounts/${encodeURIComponent(account)}/entries?limit=10000`)).entries as { eventId: string }[]).map((entry) => ({ account, eventId: entry.eventId })),
    )
  ).flat();
  return { events, ledger, escrows, integrity: await get('/v1/audit/integrity'), payoutReports, accountBalances, parties, liveEntries };
}

/** Eight reads at a time: enough to finish quickly, few enough not to queue behind each other. */
async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += 8) results.push(...(await Promise.all(items.slice(i, i + 8).map(read))));
  return results;
}
