import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AuditorStore, CredentialStore, hashPassword, MerchantLogins } from '@app/credentials';
import { RegisterAuditorCommand, RegisterMerchantCommand, type RegisteredMerchant } from '@app/onboarding';

/** `live` is absent for a demo merchant registered before modes (its tenant is in the deployment's legacy mode). */
export interface DemoMerchant extends Omit<RegisteredMerchant, 'live'>, Partial<Pick<RegisteredMerchant, 'live'>> {
  /** Sign-in of the merchant dashboard, printed with the API secret. */
  dashboard: { email: string; password: string };
  /** A read-only audit key, so the quick start reaches the audit API and console too. */
  auditorKey: string;
  /** What the demo merchant's escrow ids are derived with: the banner names the escrow its curl creates. */
  idSalt: string;
}

export const DEMO_EMAIL = 'demo@example.com';

/**
 * A merchant to try the API and the dashboard with on a fresh embedded install, and an auditor to read
 * what it did. The database keeps only hashes of the API secret, the password and the audit key, so
 * the plaintexts are kept in a private file in DATA_DIR, beside the embedded database and its key,
 * and shown again on every start.
 */
@Injectable()
export class DemoMerchantService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(AuditorStore) private readonly auditors: AuditorStore,
  ) {}

  private get file(): string {
    return join(this.config.dataDir, 'demo-merchant.json');
  }

  async ensure(): Promise<DemoMerchant | undefined> {
    if (!this.config.demoMerchant) return undefined;
    const saved = this.read();
    const current =
      saved && (await this.credentials.findByApiSecret(saved.apiSecret))?.merchantId === saved.merchantId
        ? saved
        : await this.commands.execute(new RegisterMerchantCommand('Demo Marketplace', { actor: { type: 'system', id: 'demo-merchant' } }));
    const dashboardKept = current === saved && saved.dashboard && (await this.logins.findByEmail(DEMO_EMAIL))?.merchantId === saved.merchantId;
    const auditorKept = saved?.auditorKey !== undefined && (await this.auditors.findByKey(saved.auditorKey)) !== undefined;
    const idSalt = (await this.credentials.findByApiSecret(current.apiSecret))!.idSalt;
    if (dashboardKept && auditorKept) return { ...saved, dashboard: saved.dashboard!, auditorKey: saved.auditorKey!, idSalt };
    const dashboard = dashboardKept ? saved.dashboard! : { email: DEMO_EMAIL, password: randomBytes(12).toString('base64url') };
    if (!dashboardKept) await this.logins.setPassword(current.merchantId, dashboard.email, await hashPassword(dashboard.password));
    const auditorKey = auditorKept
      ? saved.auditorKey!
      : (await this.commands.execute(new RegisterAuditorCommand('Demo auditor', { actor: { type: 'system', id: 'demo-merchant' } }))).auditorKey;
    const demo: DemoMerchant = { merchantId: current.merchantId, name: current.name, apiSecret: current.apiSecret, webhookSecret: current.webhookSecret, live: current.live, dashboard, auditorKey, idSalt };
    mkdirSync(this.config.dataDir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(demo, null, 2), { mode: 0o600 });
    return demo;
  }

  private read(): (Omit<RegisteredMerchant, 'live'> & Partial<DemoMerchant>) | undefined {
    if (!existsSync(this.file)) return undefined;
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Omit<RegisteredMerchant, 'live'> & Partial<DemoMerchant>;
    } catch {
      return undefined;
    }
  }
}
