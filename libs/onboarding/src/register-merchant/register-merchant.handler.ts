import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { merchantDecider, streams } from '@app/domain';
import { CredentialStore, MerchantLogins } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { EmailInUse } from '../invite-owner/email-in-use.error';
import { MerchantAuthenticator } from '../merchant-authenticator';
import { RegisterMerchantCommand, type RegisteredMerchant } from './register-merchant.command';

@CommandHandler(RegisterMerchantCommand)
export class RegisterMerchantHandler implements ICommandHandler<RegisterMerchantCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MerchantAuthenticator) private readonly authenticator: MerchantAuthenticator,
  ) {}

  async execute({ name, metadata, email }: RegisterMerchantCommand): Promise<RegisteredMerchant> {
    const merchantId = `mer_${randomBytes(12).toString('hex')}`;
    const at = this.clock.now().toISOString();
    // The owner's e-mail is claimed first, so a taken one is refused before anything reaches the log.
    const invitationToken = email === undefined ? undefined : await this.logins.invite(merchantId, email);
    if (email !== undefined && invitationToken === undefined) throw new EmailInUse();
    // The fact goes to the log; the secrets, and the e-mail, go only to the credential store.
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name, at } }, metadata);
    const issued = await this.credentials.issue(merchantId);
    this.authenticator.issued(merchantId, issued.apiSecret);
    return { merchantId, name, ...issued, invitationToken };
  }
}
