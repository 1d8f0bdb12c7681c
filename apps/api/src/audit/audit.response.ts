import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { nullableModel } from '@app/http';
import { EscrowResponse } from '../escrows/get-escrow/escrow.response';

/** One recorded event as the audit API shows it (libs/audit/src/audit-log.reader.ts). */
export class AuditEventResponse {
  @ApiProperty({ example: '812-1043', description: 'Its place in the global log: the `after` of the next page' })
  position!: string;

  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'escrow-esc_01JD2K8M4Q' })
  streamId!: string;

  @ApiProperty({ example: '0' })
  revision!: string;

  @ApiProperty({ example: 'EscrowCreated' })
  type!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "The event's data as recorded" })
  data!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Who, why, correlation and causation' })
  metadata!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  recordedAt!: string;

  @ApiProperty({ type: String, nullable: true, description: "Links the event to its stream's previous one (the hash chain)" })
  hash!: string | null;
}

export class AuditEventPageResponse {
  @ApiProperty({ type: [AuditEventResponse] })
  events!: AuditEventResponse[];

  @ApiProperty({ type: String, nullable: true, example: '812-1043', description: 'The `after` of the next page; null on the last' })
  next!: string | null;
}

export class StreamHistoryResponse {
  @ApiProperty({ example: 'order-ord_01JD2K8M4Q' })
  streamId!: string;

  @ApiProperty({ type: [AuditEventResponse] })
  events!: AuditEventResponse[];
}

export class EscrowAsOfResponse {
  @ApiProperty({ format: 'date-time' })
  asOf!: string;

  @ApiProperty({ type: EscrowResponse })
  escrow!: EscrowResponse;

  @ApiProperty({ type: [AuditEventResponse] })
  events!: AuditEventResponse[];
}

/** ETB. */
export class AccountBalanceResponse {
  @ApiProperty({ example: 'merchant:mer_01JD2:payable' })
  account!: string;

  @ApiProperty({ example: 1000 })
  debit!: number;

  @ApiProperty({ example: 0 })
  credit!: number;

  @ApiProperty({ example: 1000, description: "On the account's normal side" })
  balance!: number;
}

export class TrialBalanceResponse {
  @ApiProperty({ enum: ['test', 'live'], description: 'Whose books these are: the mode asked for, never the two added' })
  mode!: 'test' | 'live';

  @ApiProperty({ description: 'Total debits equal total credits' })
  balanced!: boolean;

  @ApiProperty({ example: 1000 })
  totalDebits!: number;

  @ApiProperty({ example: 1000 })
  totalCredits!: number;

  @ApiProperty({ type: [AccountBalanceResponse] })
  accounts!: AccountBalanceResponse[];
}

export class BalancesResponse {
  @ApiProperty({ enum: ['test', 'live'], description: "The mode whose accounts these are: its books' own and its tenants'" })
  mode!: 'test' | 'live';

  @ApiProperty({ format: 'date-time' })
  asOf!: string;

  @ApiProperty({ type: [AccountBalanceResponse] })
  accounts!: AccountBalanceResponse[];
}

/** One posting with the account's running balance (ETB). */
export class AccountEntryResponse {
  @ApiProperty()
  eventId!: string;

  @ApiProperty({ example: 'PaymentSucceeded' })
  eventType!: string;

  @ApiProperty({ example: 'order-ord_01JD2K8M4Q' })
  streamId!: string;

  @ApiProperty({ example: '812-1043' })
  position!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ format: 'date-time' })
  recordedAt!: string;

  @ApiProperty({ example: 0 })
  debit!: number;

  @ApiProperty({ example: 1000 })
  credit!: number;

  @ApiProperty({ example: 1000 })
  balance!: number;
}

export class AccountStatementResponse {
  @ApiProperty({ example: 'provider:clearing', description: "One account, so one mode's: the books' own accounts of test mode are named `test:…`" })
  account!: string;

  @ApiProperty({ type: [AccountEntryResponse] })
  entries!: AccountEntryResponse[];
}

export class ChainBreakResponse {
  @ApiProperty()
  streamId!: string;

  @ApiProperty()
  revision!: string;

  @ApiProperty({ enum: ['hash_mismatch', 'missing_hash', 'revision_gap', 'truncated'] })
  reason!: string;
}

@ApiExtraModels(ChainBreakResponse)
export class IntegrityReportResponse {
  @ApiProperty()
  ok!: boolean;

  @ApiProperty({ example: 120 })
  streamsChecked!: number;

  @ApiProperty({ example: 4810 })
  eventsChecked!: number;

  @ApiProperty({ ...nullableModel(ChainBreakResponse), description: 'The first broken link; null when the chain holds' })
  firstBreak!: ChainBreakResponse | null;
}
