import { Query } from '@nestjs/cqrs';
import type { AuditEvent, EventFilter, IntegrityReport } from '@app/audit';
import type { EscrowOutline, Mode } from '@app/domain';
import type { AccountBalance, LedgerReader } from '@app/read-models';

/** A page of the global log in order, filtered; `next` is the position to ask after, none on the last page. */
export class AuditEventsQuery extends Query<{ events: AuditEvent[]; next: string | null }> {
  constructor(readonly filter: EventFilter) {
    super();
  }
}

/** The filtered log as CSV lines (a header first), read page by page as they are consumed. */
export class AuditEventsCsvQuery extends Query<AsyncIterable<string>> {
  constructor(readonly filter: EventFilter) {
    super();
  }
}

/** One stream's whole history; a stream with no events is not found. */
export class StreamHistoryQuery extends Query<AuditEvent[]> {
  constructor(readonly streamId: string) {
    super();
  }
}

/** An escrow folded from the events recorded by an instant, with those events; an escrow with none by then is not found. */
export class EscrowAsOfQuery extends Query<{ escrow: EscrowOutline; events: AuditEvent[] }> {
  constructor(
    readonly escrowId: string,
    readonly asOf: Date,
  ) {
    super();
  }
}

/** One mode's books: total debits and credits, and each account. */
export class TrialBalanceQuery extends Query<Awaited<ReturnType<LedgerReader['trialBalance']>>> {
  constructor(readonly mode: Mode) {
    super();
  }
}

/** One mode's account balances (or the one named) now, or as their postings stood at `asOf`. */
export class LedgerBalancesQuery extends Query<AccountBalance[]> {
  constructor(
    readonly mode: Mode,
    readonly asOf: Date | undefined,
    readonly account: string | undefined,
  ) {
    super();
  }
}

/** An account's first postings, each with its running balance and the event behind it. */
export class AccountStatementQuery extends Query<Awaited<ReturnType<LedgerReader['statement']>>> {
  constructor(
    readonly account: string,
    readonly limit: number,
  ) {
    super();
  }
}

/** The hash chain of every stream checked, up to its first broken link; `signal` stops the walk between pages. */
export class VerifyIntegrityQuery extends Query<IntegrityReport> {
  constructor(readonly signal: AbortSignal) {
    super();
  }
}
