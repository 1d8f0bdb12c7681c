import { Inject, Injectable } from '@nestjs/common';
import { isDebitNormal } from '@app/audit';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type Mode, type Santim, toEtbNumber } from '@app/domain';
import { formatPosition } from '@app/event-store';

export interface AccountBalance {
  account: string;
  debit: number;
  credit: number;
  /** On the account's normal side: debits less credits for provider accounts, credits less debits for the rest. */
  balance: number;
}

const etb = (santim: string | number) => toEtbNumber(Number(santim) as Santim);

function present(account: string, debit: string, credit: string): AccountBalance {
  const d = BigInt(debit);
  const c = BigInt(credit);
  const balance = isDebitNormal(account) ? d - c : c - d;
  return { account, debit: etb(debit), credit: etb(credit), balance: balance < 0n ? -etb(String(-balance)) : etb(String(balance)) };
}

/**
 * The ledger read model (docs/concepts/ledger.md), for the audit API and the CLI: the books of one mode
 * at a time, its own accounts and its tenants' (docs/concepts/modes.md), never the two added.
 */
@Injectable()
export class LedgerReader {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async trialBalance(mode: Mode) {
    const rows = await this.db.query<{ account: string; debit: string; credit: string }>(
      `SELECT account, debit::text AS debit, credit::text AS credit FROM ledger_balances WHERE mode = $1 ORDER BY account`,
      [mode],
    );
    const debits = rows.reduce((sum, row) => sum + BigInt(row.debit), 0n);
    const credits = rows.reduce((sum, row) => sum + BigInt(row.credit), 0n);
    return {
      balanced: debits === credits,
      totalDebits: etb(String(debits)),
      totalCredits: etb(String(credits)),
      accounts: rows.map((row) => present(row.account, row.debit, row.credit)),
    };
  }

  /**
   * The mode's accounts (or the one named, when it is that mode's) now, or as their postings stood at `asOf`:
   * each account's postings up to then read from its (account, recorded_at, …) index, those of an account
   * with none yet leaving it out.
   */
  async balances(mode: Mode, asOf: Date | undefined, account: string | undefined): Promise<AccountBalance[]> {
    const rows = asOf
      ? await this.db.query<{ account: string; debit: string; credit: string }>(
          `SELECT b.account, s.debit::text AS debit, s.credit::text AS credit
           FROM ledger_balances b
           CROSS JOIN LATERAL (SELECT count(*) AS postings, sum(p.debit) AS debit, sum(p.credit) AS credit FROM ledger_postings p WHERE p.account = b.account AND p.recorded_at <= $1) s
           WHERE b.mode = $3 AND ($2::text IS NULL OR b.account = $2) AND s.postings > 0 ORDER BY b.account`,
          [asOf, account ?? null, mode],
        )
      : await this.db.query<{ account: string; debit: string; credit: string }>(
          `SELECT account, debit::text AS debit, credit::text AS credit FROM ledger_balances
           WHERE mode = $2 AND ($1::text IS NULL OR account = $1) ORDER BY account`,
          [account ?? null, mode],
        );
    return rows.map((row) => present(row.account, row.debit, row.credit));
  }

  /** An account's postings recorded in [from, to), in santim, each with the event that caused it. */
  async postings(account: string, from: Date, to: Date): Promise<{ eventId: string; debit: Santim | 0; credit: Santim | 0 }[]> {
    const rows = await this.db.query<{ entry_id: string; debit: string; credit: string }>(
      `SELECT entry_id, debit::text AS debit, credit::text AS credit FROM ledger_postings
       WHERE account = $1 AND recorded_at >= $2 AND recorded_at < $3 ORDER BY commit_position, prepare_position, line`,
      [account, from, to],
    );
    return rows.map((row) => ({ eventId: row.entry_id, debit: Number(row.debit) as Santim | 0, credit: Number(row.credit) as Santim | 0 }));
  }

  async statement(account: string, limit: number) {
    const rows = await this.db.query<{
      entry_id: string;
      event_type: string;
      stream_id: string;
      description: string;
      debit: string;
      credit: string;
      running_debit: string;
      running_credit: string;
      recorded_at: Date;
      commit_position: string;
      prepare_position: string;
    }>(
      `SELECT p.entry_id, e.event_type, e.stream_id, e.description, p.debit::text AS debit, p.credit::text AS credit,
              sum(p.debit) OVER w AS running_debit, sum(p.credit) OVER w AS running_credit, p.recorded_at,
              p.commit_position::text AS commit_position, p.prepare_position::text AS prepare_position
       FROM ledger_postings p JOIN ledger_entries e ON e.entry_id = p.entry_id
       WHERE p.account = $1
       WINDOW w AS (ORDER BY p.commit_position, p.prepare_position, p.line)
       ORDER BY p.commit_position, p.prepare_position, p.line LIMIT $2`,
      [account, limit],
    );
    return rows.map((row) => ({
      eventId: row.entry_id,
      eventType: row.event_type,
      streamId: row.stream_id,
      position: formatPosition({ commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) }),
      description: row.description,
      recordedAt: new Date(row.recorded_at).toISOString(),
      debit: etb(row.debit),
      credit: etb(row.credit),
      balance: present(account, String(row.running_debit), String(row.running_credit)).balance,
    }));
  }
}
