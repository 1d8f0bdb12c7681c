import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { Clocks } from '@app/infrastructure';
import { merchantBalance } from '@app/read-models';
import { type BalanceAtInstant, GetBalanceQuery } from './get-balance.query';

@QueryHandler(GetBalanceQuery)
export class GetBalanceHandler implements IQueryHandler<GetBalanceQuery> {
  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  async execute({ party, asOf }: GetBalanceQuery): Promise<BalanceAtInstant> {
    if (asOf) return { at: asOf, balance: await merchantBalance(this.db, party, { asOf }) };
    // Available now: at the account's test clock's time for an account on one (docs/concepts/time.md).
    const now = (await this.clocks.ofParty(party)).clock.now();
    return { at: now, balance: await merchantBalance(this.db, party, { now }) };
  }
}
