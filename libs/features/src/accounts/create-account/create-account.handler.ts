import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { accountDecider, accountIdFor, fingerprint, normalisePhone, streams } from '@app/domain';
import { Clocks, CommandRunner, newStream, onClock } from '@app/infrastructure';
import { refuseNewCallbackUrl } from '@app/http';
import { screeningFor } from '../account-screening';
import { CreateAccountCommand, type CreateAccountResult } from './create-account.command';

@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchant, request, metadata, idempotencyKey }: CreateAccountCommand): Promise<CreateAccountResult> {
    const requestFingerprint = fingerprint(request);
    const source = request.reference !== undefined ? { reference: request.reference } : idempotencyKey ? { idempotencyKey, requestFingerprint } : undefined;
    const accountId = accountIdFor(merchant.idSalt, source);
    const { name, type, email, phone, tin, tradeLicenceNumber, reference, callbackURL, metadata: accountMetadata } = request;
    refuseNewCallbackUrl(callbackURL, undefined, this.config);
    const clock = request.testClockId ? await this.clocks.named(request.testClockId, merchant) : this.clocks.real();
    const outcome = await this.runner.run(
      streams.account(accountId),
      accountDecider,
      {
        type: 'CreateAccount',
        data: {
          accountId,
          merchantId: merchant.merchantId,
          name: name.trim(),
          type,
          ...(email === undefined ? {} : { email }),
          ...(phone === undefined ? {} : { phone: normalisePhone(phone, 'phone') }),
          ...(tin === undefined ? {} : { tin }),
          ...(tradeLicenceNumber === undefined ? {} : { tradeLicenceNumber: tradeLicenceNumber.trim() }),
          ...(reference === undefined ? {} : { reference }),
          ...(callbackURL === undefined ? {} : { callbackUrl: callbackURL }),
          ...(accountMetadata === undefined ? {} : { metadata: accountMetadata }),
          requestFingerprint,
          ...(clock.testClockId ? { testClockId: clock.testClockId } : {}),
          at: clock.clock.now().toISOString(),
          screening: screeningFor(merchant.mode, tin),
        },
      },
      onClock(metadata, clock),
      newStream(accountDecider),
    );
    // The decider refuses what it does not create, so the account is there.
    return { account: outcome.state.account!, created: outcome.events.length > 0 };
  }
}
