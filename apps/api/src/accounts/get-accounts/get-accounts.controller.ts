import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ACCOUNT_STATUSES, type AccountStatus, InvalidInput } from '@app/domain';
import type { AuthenticatedMerchant } from '@app/credentials';
import { GetAccountQuery, ListAccountsQuery } from '@app/features/accounts';
import { parseLimit, envelope, CurrentMerchant, ReadsProjectedViews, MerchantApi, ApiEnvelope, ApiProblems } from '@app/http';
import { AccountsPageResponse, AccountWithBalanceResponse } from '@app/contract';

/** `balance=negative`: only the accounts that owe the platform (their balance, money on hold included, is below zero). */
const BALANCE_FILTERS = ['negative'] as const;

@ApiTags('accounts')
@Controller('v1/trdp/accounts')
@MerchantApi()
@ReadsProjectedViews()
export class GetAccountsController {
  constructor(@Inject(QueryBus) private readonly queries: QueryBus) {}

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
    const filter = { limit: parseLimit(limit, 10, 100), startingAfter: startingAfter || undefined, status: status as AccountStatus | undefined, negativeOnly: balance === 'negative' };
    return envelope('Accounts', await this.queries.execute(new ListAccountsQuery(merchant.merchantId, filter)));
  }

  @Get(':accountId')
  @ApiOperation({ summary: 'One of your accounts, with its status, what it still lacks before it may be paid out, and its balance' })
  @ApiEnvelope(AccountWithBalanceResponse, { message: 'Account' })
  @ApiProblems({ 404: ['ABC_001'] })
  async get(@Param('accountId') accountId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    return envelope('Account', await this.queries.execute(new GetAccountQuery(merchant.merchantId, accountId)));
  }
}
