import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AuditorStore, type SessionKind, SignInThrottle, StaffKeys } from '@app/credentials';
import { adminKeyHolder } from '@app/http';

export type KeySignIn = { ok: true; kind: SessionKind; subjectId: string } | { ok: false; locked: boolean };

/**
 * The audit console takes what the audit API takes: an auditor key or an admin key (the shared one or a staff member's). Keys are long
 * random strings, but failures still count per client address, so nobody can try keys at speed.
 */
@Injectable()
export class AuditorSignIn {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditorStore) private readonly auditors: AuditorStore,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
    @Inject(StaffKeys) private readonly staff: StaffKeys,
  ) {}

  async attempt(key: string, clientAddress: string): Promise<KeySignIn> {
    const subject = `audit-key:${clientAddress}`;
    if (await this.throttle.lockedUntil(subject)) return { ok: false, locked: true };
    const auditor = await this.auditors.findByKey(key);
    if (auditor) {
      await this.throttle.reset(subject);
      return { ok: true, kind: 'auditor', subjectId: auditor.id };
    }
    // A staff member's key signs in as that staff member, whose decisions on accounts then name them.
    const holder = await adminKeyHolder(key, this.config, this.staff);
    if (holder) {
      await this.throttle.reset(subject);
      return { ok: true, kind: 'admin', subjectId: holder };
    }
    return { ok: false, locked: (await this.throttle.recordFailure(subject)) !== undefined };
  }
}
