import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantDecider, streams } from '@app/domain';
import { CredentialStore } from '@app/credentials';
import { CommandRunner } from '@app/infrastructure';
import { RotateWebhookSecretCommand } from './rotate-webhook-secret.command';

/** A new webhook secret; every callback signed from now on uses it. The log records the rotation only. */
@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
  ) {}

  async execute({ merchantId, metadata }: RotateWebhookSecretCommand): Promise<string> {
    const secret = await this.credentials.rotateWebhookSecret(merchantId);
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RotateWebhookSecret', data: { at: new Date().toISOString() } }, metadata);
    return secret;
  }
}
