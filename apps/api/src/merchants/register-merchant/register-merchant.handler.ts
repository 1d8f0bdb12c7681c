import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { merchantDecider, streams } from '@app/domain';
import { CredentialStore } from '@app/merchants';
import { CommandRunner } from '../../infrastructure/command-runner';
import { RegisterMerchantCommand, type RegisteredMerchant } from './register-merchant.command';

@CommandHandler(RegisterMerchantCommand)
export class RegisterMerchantHandler implements ICommandHandler<RegisterMerchantCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  async execute({ name, metadata }: RegisterMerchantCommand): Promise<RegisteredMerchant> {
    const merchantId = `mer_${randomBytes(12).toString('hex')}`;
    const at = new Date().toISOString();
    // The fact goes to the log first; the secrets go only to the credential store.
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name, at } }, metadata);
    const issued = await this.credentials.issue(merchantId);
    return { merchantId, name, ...issued };
  }
}
