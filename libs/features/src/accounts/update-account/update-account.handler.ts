import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type AccountChanges, accountDecider, AccountNameRequired, accountPreviousAttributes, AccountNotFound, normalisePhone, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { screeningFor } from '../account-screening';
import { refuseNewCallbackUrl } from '@app/http';
import { UpdateAccountCommand, type UpdatedAccount } from '@app/contract';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';

@CommandHandler(UpdateAccountCommand)
export class UpdateAccountHandler implements ICommandHandler<UpdateAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TENANT_MODES) private readonly modes: TenantModeReader,
  ) {}

  async execute({ principal, merchantId, accountId, request, metadata }: UpdateAccountCommand): Promise<UpdatedAccount> {
    const { name, email, phone, tin, tradeLicenceNumber, callbackURL, metadata: accountMetadata } = request;
    if (name === null) throw new AccountNameRequired();
    await this.relations.authorise(principal, 'redirect', accountId, (id) => new AccountNotFound(id));
    // A detail left out stays; one set to null is cleared (AccountChanges).
    const changes: AccountChanges = {
      ...(name === undefined ? {} : { name: name.trim() }),
      ...(email === undefined ? {} : { email }),
      ...(phone === undefined ? {} : { phone: phone === null ? null : normalisePhone(phone, 'phone') }),
      ...(tin === undefined ? {} : { tin }),
      ...(tradeLicenceNumber === undefined ? {} : { tradeLicenceNumber: tradeLicenceNumber === null ? null : tradeLicenceNumber.trim() }),
      ...(callbackURL === undefined ? {} : { callbackUrl: callbackURL }),
      ...(accountMetadata === undefined ? {} : { metadata: accountMetadata }),
    };
    const known = await this.runner.read(streams.account(accountId), accountDecider);
    if (known.state.account?.merchantId === merchantId) refuseNewCallbackUrl(callbackURL, known.state.account.callbackUrl, this.config);
    const { state, events } = await this.runner.run(
      streams.account(accountId),
      accountDecider,
      // The sandbox rule looks at the TIN the account will have, changed or not: supplying a missing detail may complete it.
      { type: 'UpdateAccount', data: { accountId, merchantId, changes, at: this.clock.now().toISOString(), screening: screeningFor(await this.modes.modeOf(merchantId), tin === undefined ? known.state.account?.tin : (tin ?? undefined)) } },
      metadata,
      known,
    );
    const updated = events.find((event) => event.type === 'AccountUpdated');
    return { account: state.account!, previousAttributes: updated?.type === 'AccountUpdated' ? accountPreviousAttributes(updated.data.previous ?? {}) : {} };
  }
}
