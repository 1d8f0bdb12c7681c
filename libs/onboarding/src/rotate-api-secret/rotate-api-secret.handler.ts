import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantDecider, streams } from '@app/domain';
import { CredentialStore } from '@app/credentials';
import { MerchantAuthenticator } from '../merchant-authenticator';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { RotateApiSecretCommand } from './rotate-api-secret.command';

/** A new API secret; the old one stops working (at once here, within the auth cache's seconds elsewhere). */
@CommandHandler(RotateApiSecretCommand)
export class RotateApiSecretHandler implements ICommandHandler<RotateApiSecretCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(MerchantAuthenticator) private readonly authenticator: MerchantAuthenticator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchantId, metadata }: RotateApiSecretCommand): Promise<string> {
    // The merchant must exist in the log before its credentials change.
    await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RotateApiSecret', data: { at: this.clock.now().toISOString() } }, metadata);
    const secret = await this.credentials.rotateApiSecret(merchantId);
    this.authenticator.issued(merchantId, secret);
    return secret;
  }
}
