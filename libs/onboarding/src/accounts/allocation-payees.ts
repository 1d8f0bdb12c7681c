import { Inject, Injectable } from '@nestjs/common';
import { isAccountId, merchantDecider, streams, UnknownAllocationMerchant } from '@app/domain';
import { CommandRunner } from '@app/infrastructure';
import type { AuthenticatedMerchant } from '@app/credentials';
import { AccountDirectory } from './account-directory';

/** The ids RegisterMerchantHandler gives merchants. */
const MERCHANT_ID = /^mer_[0-9a-f]{24}$/;

/**
 * Whom an allocation's `merchantId` names, before the escrow is created: the creator itself, one of
 * its accounts (by accountId, or by its reference, which becomes the accountId), or a registered
 * merchant. An id of our own forms that names no one is refused, nothing written. Any other id is
 * kept as given: escrows named sellers by free ids before accounts existed, and integrations still
 * do (docs/guides/marketplaces.md says what this leaves open).
 */
@Injectable()
export class AllocationPayees {
  constructor(
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
  ) {}

  async resolve(creator: AuthenticatedMerchant, merchantId: string): Promise<string> {
    if (merchantId === creator.merchantId) return merchantId;
    if (isAccountId(merchantId)) {
      if (await this.accounts.ownedBy(creator.merchantId, merchantId)) return merchantId;
      throw new UnknownAllocationMerchant(merchantId);
    }
    const byReference = await this.accounts.byReference(creator, merchantId);
    if (byReference) return byReference.accountId;
    if (MERCHANT_ID.test(merchantId)) {
      const { state } = await this.runner.read(streams.merchant(merchantId), merchantDecider);
      if (state.merchantId) return merchantId;
      throw new UnknownAllocationMerchant(merchantId);
    }
    return merchantId;
  }
}
