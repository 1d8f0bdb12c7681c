import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { DomainError, merchantDecider, streams } from '@app/domain';
import { CredentialStore, MerchantLogins } from '@app/merchants';
import { CommandRunner } from '../../infrastructure/command-runner';
import { RegisterMerchantCommand, type RegisteredMerchant } from './register-merchant.command';

@CommandHandler(RegisterMerchantCommand)
export class RegisterMerchantHandler implements ICommandHandler<RegisterMerchantCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
  ) {}

  async execute({ name, metadata, email }: RegisterMerchantCommand): Promise<RegisteredMerchant> {
    if (email !== undefined && (await this.logins.emailTaken(email))) {
      throw new DomainError('EMAIL_IN_USE', 'Another merchant already signs in with this e-mail', 'conflict');
    }
    const merchantId = `mer_${randomBytes(12).toString('hex')}`;
    const at = new Date().toISOString();
    // The fact goes to the log first; the secrets, and the e-mail, go only to the credential store.
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name, at } }, metadata);
    const issued = await this.credentials.issue(merchantId);
    const invitationToken = email === undefined ? undefined : await this.logins.invite(merchantId, email);
    return { merchantId, name, ...issued, invitationToken };
  }
}
