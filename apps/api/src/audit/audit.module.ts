import { Module } from '@nestjs/common';
import { MerchantAuthModule } from '../http/merchant-auth.module';
import { AuditAuthGuard } from './audit-auth.guard';
import { AuditLogReader } from './audit-log.reader';
import { AuditController } from './audit.controller';
import { LedgerReader } from './ledger.reader';
import { RegisterAuditorController } from './register-auditor/register-auditor.controller';
import { RegisterAuditorHandler } from './register-auditor/register-auditor.handler';

@Module({
  imports: [MerchantAuthModule],
  controllers: [AuditController, RegisterAuditorController],
  providers: [AuditAuthGuard, AuditLogReader, LedgerReader, RegisterAuditorHandler],
  exports: [AuditLogReader, LedgerReader],
})
export class AuditModule {}
