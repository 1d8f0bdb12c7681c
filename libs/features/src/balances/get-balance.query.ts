import { Query } from '@nestjs/cqrs';
import type { MerchantBalance } from '@app/read-models';

/** A party's balance and the instant it stands at. */
export interface BalanceAtInstant {
  at: Date;
  balance: MerchantBalance;
}

/** A merchant's or an account's money by where it stands: as the ledger stood at `asOf`, or now without it. */
export class GetBalanceQuery extends Query<BalanceAtInstant> {
  constructor(
    readonly party: string,
    readonly asOf: Date | undefined,
  ) {
    super();
  }
}
