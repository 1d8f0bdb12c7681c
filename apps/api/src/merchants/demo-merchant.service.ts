import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CredentialStore } from '@app/merchants';
import { RegisterMerchantCommand, type RegisteredMerchant } from './register-merchant/register-merchant.command';

/**
 * A merchant to try the API with on a fresh embedded install. The database keeps only a hash of its
 * API secret, so the plaintext is kept in a private file in DATA_DIR, beside the embedded database and
 * its key, and shown again on every start.
 */
@Injectable()
export class DemoMerchantService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  private get file(): string {
    return join(this.config.dataDir, 'demo-merchant.json');
  }

  async ensure(): Promise<RegisteredMerchant | undefined> {
    if (!this.config.demoMerchant) return undefined;
    const saved = this.read();
    if (saved && (await this.credentials.findByApiSecret(saved.apiSecret))?.merchantId === saved.merchantId) return saved;
    const merchant = await this.commands.execute(
      new RegisterMerchantCommand('Demo Marketplace', { actor: { type: 'system', id: 'demo-merchant' } }),
    );
    mkdirSync(this.config.dataDir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(merchant, null, 2), { mode: 0o600 });
    return merchant;
  }

  private read(): RegisteredMerchant | undefined {
    if (!existsSync(this.file)) return undefined;
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as RegisteredMerchant;
    } catch {
      return undefined;
    }
  }
}
