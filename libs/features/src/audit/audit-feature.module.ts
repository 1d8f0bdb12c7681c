import { Module } from '@nestjs/common';
import { AuditLogReader } from '@app/audit';
import { DisputesReader, LedgerReader } from '@app/read-models';
import {
  AccountStatementHandler,
  AuditEventsCsvHandler,
  AuditEventsHandler,
  EscrowAsOfHandler,
  LedgerBalancesHandler,
  StreamHistoryHandler,
  TrialBalanceHandler,
  VerifyIntegrityHandler,
} from './audit.handlers';

const HANDLERS = [AccountStatementHandler, AuditEventsCsvHandler, AuditEventsHandler, EscrowAsOfHandler, LedgerBalancesHandler, StreamHistoryHandler, TrialBalanceHandler, VerifyIntegrityHandler];

/**
 * What the audit reads: the log with its hash chain, the ledger, the disputes; the audit API's queries over
 * them, and the readers for the audit console and the CLI. It sends no command: the audit API refuses every write.
 */
@Module({ providers: [AuditLogReader, LedgerReader, DisputesReader, ...HANDLERS], exports: [AuditLogReader, LedgerReader, DisputesReader] })
export class AuditFeatureModule {}
