import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { WebModule } from '../web/web.module';
import { AuditConsoleIdentityController } from './audit-console-identity.controller';
import { AuditConsoleController } from './audit-console.controller';
import { AuditorSignIn } from './auditor-sign-in.service';
import { AuditStatementController } from './statement.controller';

/** The audit console at /audit: the audit API's readers as pages, for auditor keys or the admin key. */
@Module({
  imports: [WebModule, AuditModule],
  controllers: [AuditConsoleIdentityController, AuditConsoleController, AuditStatementController],
  providers: [AuditorSignIn],
})
export class AuditConsoleModule {}
