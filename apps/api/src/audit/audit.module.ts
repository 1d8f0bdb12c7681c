import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AuditLogReader } from '@app/audit';
import { DisputesReader, LedgerReader } from '@app/read-models';
import { MerchantAuthModule, AuditAuthGuard } from '@app/http';
import { AuditController } from './audit.controller';
import { refuseAuditWrites } from './audit-read-only.hook';
import { RegisterAuditorController } from './register-auditor/register-auditor.controller';

@Module({
  imports: [MerchantAuthModule],
  controllers: [AuditController, RegisterAuditorController],
  providers: [AuditAuthGuard, AuditLogReader, LedgerReader, DisputesReader],
  exports: [AuditLogReader, LedgerReader, DisputesReader],
})
export class AuditModule implements OnModuleInit {
  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    refuseAuditWrites(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }
}
