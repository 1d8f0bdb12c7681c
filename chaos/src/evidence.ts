import type { RecordingClient } from './client';
import type { EscrowSnapshot, IntegritySnapshot, LedgerSnapshot, LoggedEvent } from './records';

export interface Evidence {
  events: LoggedEvent[];
  ledger: LedgerSnapshot;
  escrows: EscrowSnapshot[];
  integrity: IntegritySnapshot;
}

/** Reads what the checks judge through the audit API, as an auditor would (and through the recording client, so these responses are searched for secrets too). */
export async function collectEvidence(client: RecordingClient, auditorKey: string): Promise<Evidence> {
  const headers = { 'x-auditor-key': auditorKey };
  const get = async (path: string) => {
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
  const escrows: EscrowSnapshot[] = [];
  for (let i = 0; i < escrowIds.length; i += 8) {
    const batch = await Promise.all(escrowIds.slice(i, i + 8).map((id) => get(`/v1/audit/escrows/${id}`)));
    escrows.push(...batch.map((data) => data.escrow as EscrowSnapshot));
  }
  return { events, ledger: await get('/v1/audit/ledger/trial-balance'), escrows, integrity: await get('/v1/audit/integrity') };
}
