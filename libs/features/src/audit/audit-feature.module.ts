import { Module } from '@nestjs/common';
import { AuditLogReader } from '@app/audit';
import { DisputesReader, LedgerReader } from '@app/read-models';

/** What the audit reads: the log with its hash chain, the ledger, the disputes. It sends no command: the audit API refuses every write. */
@Module({ providers: [AuditLogReader, LedgerReader, DisputesReader], exports: [AuditLogReader, LedgerReader, DisputesReader] })
export class AuditFeatureModule {}
