import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantDecider, MerchantNotFound, otherMode, streams } from '@app/domain';
import { CredentialStore } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { MerchantAuthenticator } from '../merchant-authenticator';
import { newMerchantId, registerTenant } from '../register-merchant/register-merchant.handler';
import { OpenOtherModeCommand, type OpenedOtherMode } from './open-other-mode.command';

@CommandHandler(OpenOtherModeCommand)
export class OpenOtherModeHandler implements ICommandHandler<OpenOtherModeCommand> {
  constructor(
    @Inject(CommandRunner) readonly runner: CommandRunner,
    @Inject(CredentialStore) readonly credentials: CredentialStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MerchantAuthenticator) readonly authenticator: MerchantAuthenticator,
  ) {}

  async execute({ merchantId, metadata }: OpenOtherModeCommand): Promise<OpenedOtherMode> {
    const tenant = await this.credentials.modeOf(merchantId);
    if (!tenant) throw new MerchantNotFound(merchantId);
    const twinId = newMerchantId();
    const at = this.clock.now().toISOString();
    // The legacy tenant's stream decides first: a twin it already has (or a second request) is refused before a tenant is made.
    const { state } = await this.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'OpenTwin', data: { twinId, at } }, metadata);
    const mode = otherMode(tenant.mode);
    const twin = await registerTenant(this, { merchantId: twinId, name: state.name ?? merchantId, mode, twinId: merchantId, at }, metadata);
    await this.credentials.pairTwin(merchantId, twinId);
    return { ...twin, mode, twinId: merchantId };
  }
}
