import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AuditLogReader } from '@app/audit';
import { escrowAsOf, eventCsvRows } from '@app/contract';
import { EscrowNotFound, streams } from '@app/domain';
import { LedgerReader } from '@app/read-models';
import { StreamNotFound } from './audit.errors';
import {
  AccountStatementQuery,
  AuditEventsCsvQuery,
  AuditEventsQuery,
  EscrowAsOfQuery,
  LedgerBalancesQuery,
  StreamHistoryQuery,
  TrialBalanceQuery,
  VerifyIntegrityQuery,
} from './audit.queries';

@QueryHandler(AuditEventsQuery)
export class AuditEventsHandler implements IQueryHandler<AuditEventsQuery> {
  constructor(@Inject(AuditLogReader) private readonly log: AuditLogReader) {}

  execute({ filter }: AuditEventsQuery) {
    return this.log.page(filter);
  }
}

@QueryHandler(AuditEventsCsvQuery)
export class AuditEventsCsvHandler implements IQueryHandler<AuditEventsCsvQuery> {
  constructor(@Inject(AuditLogReader) private readonly log: AuditLogReader) {}

  async execute({ filter }: AuditEventsCsvQuery): Promise<AsyncIterable<string>> {
    return eventCsvRows(this.log, filter);
  }
}

@QueryHandler(StreamHistoryQuery)
export class StreamHistoryHandler implements IQueryHandler<StreamHistoryQuery> {
  constructor(@Inject(AuditLogReader) private readonly log: AuditLogReader) {}

  async execute({ streamId }: StreamHistoryQuery) {
    const events = await this.log.stream(streamId);
    if (events.length === 0) throw new StreamNotFound(streamId);
    return events;
  }
}

@QueryHandler(EscrowAsOfQuery)
export class EscrowAsOfHandler implements IQueryHandler<EscrowAsOfQuery> {
  constructor(@Inject(AuditLogReader) private readonly log: AuditLogReader) {}

  async execute({ escrowId, asOf }: EscrowAsOfQuery) {
    const events = await this.log.stream(streams.escrow(escrowId), asOf);
    if (events.length === 0) throw new EscrowNotFound(escrowId);
    return { escrow: escrowAsOf(escrowId, events), events };
  }
}

@QueryHandler(TrialBalanceQuery)
export class TrialBalanceHandler implements IQueryHandler<TrialBalanceQuery> {
  constructor(@Inject(LedgerReader) private readonly ledger: LedgerReader) {}

  execute({ mode }: TrialBalanceQuery) {
    return this.ledger.trialBalance(mode);
  }
}

@QueryHandler(LedgerBalancesQuery)
export class LedgerBalancesHandler implements IQueryHandler<LedgerBalancesQuery> {
  constructor(@Inject(LedgerReader) private readonly ledger: LedgerReader) {}

  execute({ mode, asOf, account }: LedgerBalancesQuery) {
    return this.ledger.balances(mode, asOf, account);
  }
}

@QueryHandler(AccountStatementQuery)
export class AccountStatementHandler implements IQueryHandler<AccountStatementQuery> {
  constructor(@Inject(LedgerReader) private readonly ledger: LedgerReader) {}

  execute({ account, limit }: AccountStatementQuery) {
    return this.ledger.statement(account, limit);
  }
}

@QueryHandler(VerifyIntegrityQuery)
export class VerifyIntegrityHandler implements IQueryHandler<VerifyIntegrityQuery> {
  constructor(@Inject(AuditLogReader) private readonly log: AuditLogReader) {}

  execute({ signal }: VerifyIntegrityQuery) {
    return this.log.verifyIntegrity(undefined, signal);
  }
}
