import { ApiProperty } from '@nestjs/swagger';
import { ACCOUNT_STATUSES, DOCUMENT_KINDS } from '@app/domain';

/** What an account owes while its balance (payable and fees, money on hold included) is below zero (negative-balances.reader.ts). */
export class NegativeBalanceResponse {
  @ApiProperty({ example: -20, description: 'What it owes: its balance (money on hold included), signed ETB, below zero; the next money the account earns covers it first' })
  available!: number;

  @ApiProperty({ format: 'date-time', description: 'Since when the balance has stayed below zero' })
  negativeSince!: string;
}

/** A document the operator's staff asked the account for, and by when. */
export class RequirementDueResponse {
  @ApiProperty({ enum: DOCUMENT_KINDS })
  kind!: string;

  @ApiProperty({ format: 'date-time', example: '2026-12-15T09:00:00.000Z' })
  dueBy!: string;

  @ApiProperty({ description: 'The instant has passed without the document: the account is restricted for payouts until it arrives or staff approve the account' })
  pastDue!: boolean;
}

/** A platform's account as the platform sees it (account.presenter.ts). */
export class AccountResponse {
  @ApiProperty({ example: 'acct_5f0c1e9a2b7d4c3e8f1a6b2c9d0e7f41' })
  accountId!: string;

  @ApiProperty({ type: String, nullable: true, example: 'seller-17' })
  reference!: string | null;

  @ApiProperty({ enum: ['individual', 'business'] })
  type!: string;

  @ApiProperty({ example: 'Abebe Coffee PLC' })
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  email!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+251911234567' })
  phone!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '0012345678' })
  tin!: string | null;

  @ApiProperty({ type: String, nullable: true })
  tradeLicenceNumber!: string | null;

  @ApiProperty({ type: String, nullable: true })
  callbackURL!: string | null;

  @ApiProperty({ type: Object, nullable: true, example: { shopId: 'shop-17' } })
  metadata!: Record<string, unknown> | null;

  @ApiProperty({ enum: ACCOUNT_STATUSES })
  status!: string;

  @ApiProperty({ type: String, nullable: true, description: "The reviewer's reason, or what changed on a verified account", example: null })
  statusReason!: string | null;

  @ApiProperty({
    type: [String],
    example: ['tradeLicenceNumber', 'payoutDestination'],
    description: 'What is still missing before the account may be paid out: tin, tradeLicenceNumber (a business), payoutDestination, payoutDestination.holderName (the holder is not the account’s legal name)',
  })
  requirements!: string[];

  @ApiProperty({
    type: [RequirementDueResponse],
    description: "Documents the operator's staff asked for (POST /v1/admin/accounts/{accountId}/request-information) and not yet received; each is met by an upload of its kind, all by an approval",
  })
  requirementsDue!: RequirementDueResponse[];

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Payouts wait until then after a change of payout destination' })
  payoutsHeldUntil!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The test clock its creation attached it to (testClockId in the create body): its rules read that clock\'s time; null: the real time' })
  testClockId!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  @ApiProperty({ type: NegativeBalanceResponse, required: false, description: 'In a list asked with balance=negative: what the account owes and since when' })
  negativeBalance?: NegativeBalanceResponse;
}

/** An account's money now, signed ETB: what its own balance (`GET /v1/trdp/balance` with x-account-id) says of it. */
export class SellerBalanceResponse {
  @ApiProperty({ example: 1080, description: 'What may be paid out now: its payable and fees less what is on hold (below zero when it owes)' })
  available!: number;

  @ApiProperty({ example: 410, description: 'Credited but kept by the holding period (payoutDelayDays): not yet available' })
  onHold!: number;

  @ApiProperty({ example: 0, description: 'Credited but kept by the rolling reserve (reservePercent for reserveDays), beyond what is on hold: not yet available' })
  reserve!: number;

  @ApiProperty({ example: 1200, description: 'Held for it in escrows: paid, not yet released or refunded, not disputed' })
  pending!: number;

  @ApiProperty({ example: false, description: 'It owes money: its balance, money on hold included, is below zero (as balance=negative lists it)' })
  negative!: boolean;
}

/** An account as the platform's reads show it: with its balance, read for a whole page at once. */
export class AccountWithBalanceResponse extends AccountResponse {
  @ApiProperty({ type: SellerBalanceResponse })
  balance!: SellerBalanceResponse;
}

export class AccountsPageResponse {
  @ApiProperty({ type: [AccountWithBalanceResponse] })
  accounts!: AccountWithBalanceResponse[];

  @ApiProperty({ description: 'More accounts follow: ask again with startingAfter set to the last accountId' })
  hasMore!: boolean;
}

/** An account after an update, and what the update changed from what. */
export class UpdatedAccountResponse extends AccountResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { name: 'Abebe Coffee', callbackURL: null },
    description: 'Each detail the update changed, by its name in the body, with its value before (null: it had none), as Stripe’s previous_attributes; {} when it changed nothing',
  })
  previousAttributes!: Record<string, unknown>;
}

/** Who took a decision on an account: one of the operator's staff by their own key, or the shared admin key (`admin`). */
export class AccountDeciderResponse {
  @ApiProperty({ enum: ['admin'], example: 'admin' })
  type!: string;

  @ApiProperty({ example: 'stf_4c1d9e0a7b2f5e8c3a6d1f0b', description: "The staff member's id (stf_…) when they used their own key; `admin` for the deployment's ADMIN_API_KEY" })
  id!: string;
}

/** An account after a decision of the operator's staff, naming who took it (as the account's event does). */
export class ReviewedAccountResponse extends AccountResponse {
  @ApiProperty({ type: AccountDeciderResponse, description: 'Who took this decision' })
  decidedBy!: AccountDeciderResponse;
}
