import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { ACCOUNT_STATUSES, AccountNotFound, type AccountStatus, InvalidInput } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { accountsPage, negativeBalancesOf, type OwnerBalance, ownerBalances, ownedAccount, type StoredAccount, signedBirr } from '@app/read-models';
import { CLOCK, type Clock, Clocks } from '@app/infrastructure';
import { parseLimit, envelope, CurrentMerchant, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { presentAccount, AccountsPageResponse, AccountWithBalanceResponse } from '@app/contract';

/** `balance=negative`: only the accounts that owe the platform (their balance, money on hold included, is below zero). */
const BALANCE_FILTERS = ['negative'] as const;

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
@ReadsProjectedViews()
export class GetAccountsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  /** An account's answer: what is past due by its own clock (a test clock's time for one attached to it). */
  private async present({ account, destination }: StoredAccount, balance: OwnerBalance | undefined) {
    return {
      ...presentAccount(account, destination, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(account)).clock.now()),
      balance: {
        available: signedBirr(balance?.available ?? 0),
        onHold: signedBirr(balance?.onHold ?? 0),
        reserve: signedBirr(balance?.reserve ?? 0),
        pending: signedBirr(balance?.pending ?? 0),
        negative: balance?.negative ?? false,
      },
    };
  }

  /** The accounts' balances now, one query for the page. */
  private balancesOf(stored: readonly StoredAccount[]): Promise<Map<string, OwnerBalance>> {
    return ownerBalances(
      this.db,
      stored.map(({ account }) => account.accountId),
      this.clock.now(),
    );
  }

  @Get()
  @ApiOperation({ summary: 'Your accounts, newest first, a page at a time, each with its balance (available, on hold, reserve, pending, negative)' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' })
  @ApiQuery({ name: 'startingAfter', required: false, description: 'the accountId of the last account of the page before' })
  @ApiQuery({ name: 'status', required: false, enum: ACCOUNT_STATUSES })
  @ApiQuery({ name: 'balance', required: false, enum: BALANCE_FILTERS, description: 'negative: only the accounts that owe money: whose balance, money on hold included, is below zero, each with what it owes and since when' })
  @ApiEnvelope(AccountsPageResponse, { message: 'Accounts' })
  @ApiProblems({ 400: ['UNKNOWN_CURSOR', 'BadRequestException'] })
  async list(
    @Query('limit') limit: string | undefined,
    @Query('startingAfter') startingAfter: string | undefined,
    @Query('status') status: string | undefined,
    @Query('balance') balance: string | undefined,
    @CurrentMerchant() merchant: AuthenticatedMerchant,
  ) {
    if (status !== undefined && !ACCOUNT_STATUSES.includes(status as AccountStatus)) throw new InvalidInput(`status must be one of ${ACCOUNT_STATUSES.join(', ')}`);
    if (balance !== undefined && balance !== 'negative') throw new InvalidInput(`balance must be one of ${BALANCE_FILTERS.join(', ')}`);
    const negativeOnly = balance === 'negative';
    const page = await accountsPage(this.db, merchant.merchantId, {
      limit: parseLimit(limit, 10, 100),
      startingAfter: startingAfter || undefined,
      status: status as AccountStatus | undefined,
      negativeOnly,
    });
    if (!page) throw new InvalidInput('startingAfter must be the accountId of one of your accounts', 'UNKNOWN_CURSOR');
    const [owed, balances] = await Promise.all([
      negativeOnly ? negativeBalancesOf(this.db, page.accounts.map(({ account }) => account.accountId)) : new Map<string, never>(),
      this.balancesOf(page.accounts),
    ]);
    const accounts = await Promise.all(
      page.accounts.map(async (stored) => {
        const negative = owed.get(stored.account.accountId);
        return {
          ...(await this.present(stored, balances.get(stored.account.accountId))),
          ...(negative ? { negativeBalance: { available: signedBirr(negative.balance), negativeSince: negative.negativeSince.toISOString() } } : {}),
        };
      }),
    );
    return envelope('Accounts', { accounts, hasMore: page.hasMore });
  }

  @Get(':accountId')
  @ApiOperation({ summary: 'One of your accounts, with its status, what it still lacks before it may be paid out, and its balance' })
  @ApiEnvelope(AccountWithBalanceResponse, { message: 'Account' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('accountId') accountId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const stored = await ownedAccount(this.db, merchant.merchantId, accountId);
    if (!stored) throw new AccountNotFound(accountId);
    return envelope('Account', await this.present(stored, (await this.balancesOf([stored])).get(accountId)));
  }
}
