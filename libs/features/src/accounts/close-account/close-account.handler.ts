import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { type Account, accountDecider, AccountNotFound, streams } from '@app/domain';
import { Clocks, CommandRunner } from '@app/infrastructure';
import { PartyRelations } from '@app/onboarding';
import { closeAtBooks, PayoutBooksDeps } from '@app/payments';
import { accountHoldings } from '@app/read-models';
import { CloseAccountCommand } from '@app/contract';

/**
 * Closes one of the platform's accounts once it holds nothing (docs/guides/marketplaces.md, "Closing an
 * account"). The closing is decided at the books where the account's money moves (closeAtBooks), on
 * what it holds once the ledger and the views include everything the log held then: a transfer to or
 * from it, or a payout of it, decided at the same moment is either seen by the closing or refused by
 * the closed account. From the closing on, the authority rule credits the account nothing more.
 */
@CommandHandler(CloseAccountCommand)
export class CloseAccountHandler implements ICommandHandler<CloseAccountCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(PayoutBooksDeps) private readonly books: PayoutBooksDeps,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(PartyRelations) private readonly relations: PartyRelations,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ principal, merchantId, accountId, reason, metadata }: CloseAccountCommand): Promise<Account> {
    await this.relations.authorise(principal, 'redirect', accountId, (id) => new AccountNotFound(id));
    // The platform itself passes the rule but is no account: nothing of its money is read for a closing that cannot be.
    const known = await this.runner.read(streams.account(accountId), accountDecider);
    if (known.state.account?.merchantId !== merchantId) throw new AccountNotFound(accountId);
    // What the holding period keeps is read at the account's own time: its test clock's, on one (docs/concepts/time.md).
    const { clock } = await this.clocks.ofParty(accountId);
    const state = await closeAtBooks(
      this.books,
      {
        accountId,
        platformId: merchantId,
        holdings: () => accountHoldings(this.db, accountId, clock.now()),
        close: (holdings) => ({ type: 'CloseAccount', data: { accountId, merchantId, reason: reason.trim(), holdings, at: clock.now().toISOString() } }),
      },
      metadata,
    );
    return state.account!;
  }
}
