import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import type { EventMetadata } from '@app/event-store';
import { merchantDecider, type Mode, streams } from '@app/domain';
import { CredentialStore, MerchantLogins } from '@app/credentials';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { EmailInUse } from '../invite-owner/email-in-use.error';
import { MerchantAuthenticator } from '../merchant-authenticator';
import { RegisterMerchantCommand, type RegisteredMerchant, type TenantCredentials } from './register-merchant.command';

export const newMerchantId = () => `mer_${randomBytes(12).toString('hex')}`;

/** Registers one tenant of an owner in `mode`, its other mode being `twinId`, and issues its keys. */
export async function registerTenant(
  deps: { runner: CommandRunner; credentials: CredentialStore; authenticator: MerchantAuthenticator },
  tenant: { merchantId: string; name: string; mode: Mode; twinId: string; at: string },
  metadata: EventMetadata,
): Promise<TenantCredentials> {
  const { merchantId, name, mode, twinId, at } = tenant;
  // The fact goes to the log; the secrets, and the e-mail, go only to the credential store.
  await deps.runner.run(streams.merchant(merchantId), merchantDecider, { type: 'RegisterMerchant', data: { merchantId, name, at, mode, twinId } }, metadata);
  const issued = await deps.credentials.issue(merchantId, mode, twinId);
  deps.authenticator.issued(merchantId, issued.apiSecret);
  return { merchantId, ...issued };
}

/** An owner's test and live tenants (docs/concepts/modes.md), each with its own id and keys. */
@CommandHandler(RegisterMerchantCommand)
export class RegisterMerchantHandler implements ICommandHandler<RegisterMerchantCommand> {
  constructor(
    @Inject(CommandRunner) readonly runner: CommandRunner,
    @Inject(CredentialStore) readonly credentials: CredentialStore,
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MerchantAuthenticator) readonly authenticator: MerchantAuthenticator,
  ) {}

  async execute({ name, metadata, email }: RegisterMerchantCommand): Promise<RegisteredMerchant> {
    const [testId, liveId] = [newMerchantId(), newMerchantId()];
    const at = this.clock.now().toISOString();
    // The owner's e-mail is claimed first, so a taken one is refused before anything reaches the log.
    const invitationToken = email === undefined ? undefined : await this.logins.invite(testId, email);
    if (email !== undefined && invitationToken === undefined) throw new EmailInUse();
    const test = await registerTenant(this, { merchantId: testId, name, mode: 'test', twinId: liveId, at }, metadata);
    const live = await registerTenant(this, { merchantId: liveId, name, mode: 'live', twinId: testId, at }, metadata);
    return { ...test, name, live, invitationToken };
  }
}
