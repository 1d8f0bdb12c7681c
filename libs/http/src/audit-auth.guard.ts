import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AuditorStore, StaffKeys } from '@app/credentials';
import { adminKeyHolder } from './auth.guards';
import { ApiError } from './problem';
import type { RequestWithActor } from './request-context';

/** The audit API: an auditor key (read-only by construction: only GET routes exist) or an admin key (the shared one or a staff member's). */
@Injectable()
export class AuditAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditorStore) private readonly auditors: AuditorStore,
    @Inject(StaffKeys) private readonly staff: StaffKeys,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithActor>();
    const auditorKey = request.headers['x-auditor-key'];
    const adminKey = request.headers['x-admin-key'];
    if (typeof auditorKey === 'string' && auditorKey.length <= 512) {
      const auditor = await this.auditors.findByKey(auditorKey);
      if (auditor) {
        request.actor = { type: 'auditor', id: auditor.id };
        request.principal = { kind: 'auditor', auditorId: auditor.id };
        return true;
      }
    }
    const holder = typeof adminKey === 'string' && adminKey.length <= 512 ? await adminKeyHolder(adminKey, this.config, this.staff) : undefined;
    if (holder) {
      request.actor = { type: 'admin', id: holder };
      request.principal = { kind: 'operator' };
      return true;
    }
    throw new ApiError(401, 'AUTH_001', 'The audit API needs a valid x-auditor-key (or x-admin-key) header');
  }
}
