import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { type Account, accountDecider, accountIdFor, type DestinationOnFile, type PayoutStanding, payoutStanding, streams } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';

/**
 * A platform's accounts as their streams stand (never a view that may lag behind a create answered a
 * moment ago): whose an account is, which account a platform's reference names, and whether an
 * account may be paid out now.
 */
@Injectable()
export class AccountDirectory {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Any account under this id; undefined for an id that names none. */
  async find(accountId: string): Promise<Account | undefined> {
    return (await this.runner.read(streams.account(accountId), accountDecider)).state.account;
  }

  /** The account, when it is one of the platform's; undefined for another's as for none. */
  async ownedBy(platformId: string, accountId: string): Promise<Account | undefined> {
    const account = await this.find(accountId);
    return account?.merchantId === platformId ? account : undefined;
  }

  /** The platform's account under its own reference (the reference keys the account's id: ids.ts). */
  async byReference(platform: { merchantId: string; idSalt: string }, reference: string): Promise<Account | undefined> {
    return this.ownedBy(platform.merchantId, accountIdFor(platform.idSalt, { reference }));
  }

  /**
   * May this merchant be paid out now, to the destination it has on file: a merchant that is no
   * account (a platform, a merchant of its own) always may; an account only when verified, with
   * nothing missing, and its destination not changed within PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS.
   */
  async payoutStanding(merchantId: string, destination: DestinationOnFile | undefined, now = this.clock.now()): Promise<PayoutStanding> {
    const account = await this.find(merchantId);
    return account ? payoutStanding(account, destination, now, this.config.payoutHoldAfterDestinationChangeMs) : { payable: true };
  }
}
