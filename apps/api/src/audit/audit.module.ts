import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { MerchantAuthModule, AuditAuthGuard } from '@app/http';
import { AuditFeatureModule } from '@app/features/audit';
import { AuditController } from './audit.controller';
import { refuseAuditWrites } from './audit-read-only.hook';
import { RegisterAuditorController } from './register-auditor/register-auditor.controller';

@Module({
  imports: [MerchantAuthModule, AuditFeatureModule],
  controllers: [AuditController, RegisterAuditorController],
  providers: [AuditAuthGuard],
})
export class AuditModule implements OnModuleInit {
  constructor(@Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    refuseAuditWrites(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }
}
