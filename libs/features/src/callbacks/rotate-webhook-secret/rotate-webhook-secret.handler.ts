import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, merchantDecider, redirectedParty, streams } from '@app/domain';
import { CredentialStore } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RotateWebhookSecretCommand } from '@app/contract';

/**
 * A new webhook secret, the merchant's or (acting for it) a seller account's; every callback signed
 * from now on uses it. The log records the rotation only, which drops the old secret from every
 * process's cache (libs/callback-delivery/src/webhook-secrets.ts).
 */
@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, metadata }: RotateWebhookSecretCommand): Promise<string> {
    const at = this.clock.now().toISOString();
    const { id: merchantId, account } = redirectedParty(principal);
    if (account) {
      const secret = await this.credentials.rotateAccountWebhookSecret(merchantId);
      await this.runner.run(streams.account(merchantId), accountDecider, { type: 'RotateAccountWebhookSecret', data: { accountId: merchantId, at } }, metadata);
      return secret;
    }
    const secret = await this.credentials.rotateWebhookSecret(merchantId);
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RotateWebhookSecret', data: { at } }, metadata);
    return secret;
  }
}
