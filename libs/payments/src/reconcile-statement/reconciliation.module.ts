import { Module } from '@nestjs/common';
import { AuditLogReader } from '@app/audit';
import { LedgerReader } from '@app/read-models';
import { ReconcileStatementHandler } from './reconcile-statement.handler';

/** Provider statement reconciliation, for the CLI and the audit console alike. */
@Module({ providers: [ReconcileStatementHandler, LedgerReader, AuditLogReader] })
export class ReconciliationModule {}
