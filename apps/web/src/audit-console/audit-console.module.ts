import { Module } from '@nestjs/common';
import { ReconciliationModule } from '@app/payments';
import { accountDocumentsProvider } from '@app/contract';
import { AuditFeatureModule } from '@app/features/audit';
import { WebModule } from '../kit/web.module';
import { AccountReviewController } from './account-review.controller';
import { AuditConsoleIdentityController } from './audit-console-identity.controller';
import { AuditConsoleController } from './audit-console.controller';
import { AuditReconciliationController } from './audit-reconciliation.controller';
import { AuditorSignIn } from './auditor-sign-in.service';
import { AuditStatementController } from './statement.controller';

/** The audit console at /audit: the audit API's readers as pages, for auditor keys or the admin key, and provider reconciliation. */
@Module({
  imports: [WebModule, ReconciliationModule, AuditFeatureModule],
  controllers: [AccountReviewController, AuditConsoleIdentityController, AuditConsoleController, AuditReconciliationController, AuditStatementController],
  providers: [AuditorSignIn, accountDocumentsProvider],
})
export class AuditConsoleModule {}
