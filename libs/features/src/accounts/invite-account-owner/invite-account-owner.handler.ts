import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, AccountNotFound, AccountOwnerEmailRequired, streams } from '@app/domain';
import { MerchantLogins } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { AccountDirectory, EmailInUse, PartyRelations } from '@app/onboarding';
import { InviteAccountOwnerCommand, RecordAccountInvitationUsedCommand } from '@app/contract';

/**
 * The seller signs in to the dashboard as its account: its login is kept under the account's id,
 * beside the merchants' (the token only as its SHA-256, good once, 7 days), and a fresh invitation
 * replaces a pending one. The account's stream records that an invitation was issued, never its
 * code nor to whom.
 */
@CommandHandler(InviteAccountOwnerCommand)
export class InviteAccountOwnerHandler implements ICommandHandler<InviteAccountOwnerCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, platformId, accountId, email, metadata }: InviteAccountOwnerCommand): Promise<string> {
    await this.relations.authorise(principal, 'redirect', accountId, (id) => new AccountNotFound(id));
    const account = await this.accounts.ownedBy(platformId, accountId);
    if (!account) throw new AccountNotFound(accountId);
    const owner = email ?? account.email;
    if (owner === undefined && !(await this.logins.hasLogin(accountId))) throw new AccountOwnerEmailRequired(accountId);
    const token = await this.logins.invite(accountId, owner);
    if (token === undefined) throw new EmailInUse();
    await this.runner.run(streams.account(accountId), accountDecider, { type: 'InviteAccountOwner', data: { accountId, merchantId: platformId, at: this.clock.now().toISOString() } }, metadata);
    return token;
  }
}

@CommandHandler(RecordAccountInvitationUsedCommand)
export class RecordAccountInvitationUsedHandler implements ICommandHandler<RecordAccountInvitationUsedCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, metadata }: RecordAccountInvitationUsedCommand): Promise<void> {
    await this.runner.run(streams.account(accountId), accountDecider, { type: 'RecordOwnerInvitationUsed', data: { accountId, at: this.clock.now().toISOString() } }, metadata);
  }
}
