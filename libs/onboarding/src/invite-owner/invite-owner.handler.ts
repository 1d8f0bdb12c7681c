import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, merchantDecider, MerchantNotFound, streams } from '@app/domain';
import { CredentialStore, MerchantLogins } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { EmailInUse } from './email-in-use.error';
import { InviteOwnerCommand } from './invite-owner.command';

/**
 * For an owner whose invitation expired, who forgot the password, or a merchant registered without
 * one: a fresh invitation replaces any pending one. Accepting it sets a new password and signs out
 * every other session. The log records that an invitation was issued, never to whom.
 */
@CommandHandler(InviteOwnerCommand)
export class InviteOwnerHandler implements ICommandHandler<InviteOwnerCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchantId, email, metadata }: InviteOwnerCommand): Promise<string> {
    if (!(await this.credentials.findByMerchantId(merchantId))) throw new MerchantNotFound(merchantId);
    if (email === undefined && !(await this.logins.hasLogin(merchantId))) {
      throw new InvalidInput('email is required: this merchant has no dashboard owner yet');
    }
    const token = await this.logins.invite(merchantId, email);
    if (token === undefined) throw new EmailInUse();
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'InviteOwner', data: { at: this.clock.now().toISOString() } }, metadata);
    return token;
  }
}
