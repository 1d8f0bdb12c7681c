import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { refusedWebhookUrl } from '@app/callback-delivery';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccountLinks } from '@app/credentials';
import { AccountIsClosed, AccountNotFound } from '@app/domain';
import { CLOCK, type Clock } from '@app/infrastructure';
import { AccountDirectory, PartyRelations } from '@app/onboarding';
import { AccountLinkUrlRefused } from './account-link-url-refused.error';
import { CreateAccountLinkCommand } from './create-account-link.command';

/**
 * A link is the platform letting its seller act as the account on the hosted page: asked of the
 * authority rule as a redirect (its own account only; another platform's is not found). Its URLs
 * follow the callback address rules, as a callbackURL does; the token is kept only as its hash and
 * never enters the log (libs/credentials account-links.ts).
 */
@CommandHandler(CreateAccountLinkCommand)
export class CreateAccountLinkHandler implements ICommandHandler<CreateAccountLinkCommand> {
  constructor(
    @Inject(AccountLinks) private readonly links: AccountLinks,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, platformId, request }: CreateAccountLinkCommand): Promise<{ token: string; expiresAt: Date }> {
    const { accountId, returnUrl, refreshUrl } = request;
    await this.relations.authorise(principal, 'redirect', accountId, (id) => new AccountNotFound(id));
    const account = await this.accounts.ownedBy(platformId, accountId);
    if (!account) throw new AccountNotFound(accountId);
    // The page changes the account's details and destination: a closed account takes neither.
    if (account.status === 'CLOSED') throw new AccountIsClosed(accountId);
    for (const [field, url] of [['returnUrl', returnUrl], ['refreshUrl', refreshUrl]] as const) {
      const refused = refusedWebhookUrl(url, this.config.callbackAllowPrivateUrls);
      if (refused) throw new AccountLinkUrlRefused(field, refused);
    }
    return this.links.create({ accountId, platformId, returnUrl, refreshUrl }, this.clock.now());
  }
}
