import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { presentAccount } from '@app/contract';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { AccountNotFound, InvalidInput } from '@app/domain';
import { Clocks } from '@app/infrastructure';
import { accountsPage, negativeBalancesOf, ownedAccount, ownerBalances, signedBirr, type StoredAccount } from '@app/read-models';
import { type AccountWithBalance, GetAccountQuery, ListAccountsQuery } from './get-accounts.query';

/**
 * Accounts with their balances, each read at its own clock's time (a test clock's for an account on one),
 * as its own balance (GET /v1/trdp/balance with x-account-id) and what is past due are: one query for the page.
 */
async function withBalances(db: SqlClient, config: AppConfig, clocks: Clocks, stored: readonly StoredAccount[]): Promise<AccountWithBalance[]> {
  const accounts = stored.map(({ account }) => account);
  const nows = await clocks.nowOfAccounts(accounts);
  const balances = await ownerBalances(db, accounts.map((account) => account.accountId), nows);
  return stored.map(({ account, destination }) => {
    const balance = balances.get(account.accountId);
    return {
      ...presentAccount(account, destination, config.payoutHoldAfterDestinationChangeMs, nows.get(account.accountId)!),
      balance: {
        available: signedBirr(balance?.available ?? 0),
        onHold: signedBirr(balance?.onHold ?? 0),
        reserve: signedBirr(balance?.reserve ?? 0),
        pending: signedBirr(balance?.pending ?? 0),
        negative: balance?.negative ?? false,
      },
    };
  });
}

@QueryHandler(ListAccountsQuery)
export class ListAccountsHandler implements IQueryHandler<ListAccountsQuery> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchantId, filter }: ListAccountsQuery): Promise<{ accounts: AccountWithBalance[]; hasMore: boolean }> {
    const page = await accountsPage(this.db, merchantId, filter);
    if (!page) throw new InvalidInput('startingAfter must be the accountId of one of your accounts', 'UNKNOWN_CURSOR');
    const [owed, accounts] = await Promise.all([
      filter.negativeOnly ? negativeBalancesOf(this.db, page.accounts.map(({ account }) => account.accountId)) : new Map<string, never>(),
      withBalances(this.db, this.config, this.clocks, page.accounts),
    ]);
    return {
      accounts: accounts.map((account) => {
        const negative = owed.get(account.accountId);
        return { ...account, ...(negative ? { negativeBalance: { available: signedBirr(negative.balance), negativeSince: negative.negativeSince.toISOString() } } : {}) };
      }),
      hasMore: page.hasMore,
    };
  }
}

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ merchantId, accountId }: GetAccountQuery): Promise<AccountWithBalance> {
    const stored = await ownedAccount(this.db, merchantId, accountId);
    if (!stored) throw new AccountNotFound(accountId);
    const [account] = await withBalances(this.db, this.config, this.clocks, [stored]);
    return account;
  }
}
