import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import type { Account, VerificationDecider } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { Clocks } from '@app/infrastructure';
import { anyAccount } from '@app/read-models';
import { envelope, ApiEnvelope, ApiProblems, AdminApi, RequestMetadata } from '@app/http';
import { presentAccount, RequestAccountInformationCommand, ReviewAccountCommand, ReviewedAccountResponse } from '@app/contract';
import { ApproveAccountDto, RejectAccountDto, RequestAccountInformationDto } from '../request-information/account-review.dto';

/** Who decides: the staff member whose own key the request sent (the shared ADMIN_API_KEY names the operator's `admin`). */
const staffOf = (metadata: EventMetadata): VerificationDecider => ({ type: 'admin', id: metadata.actor?.id ?? 'admin' });

/**
 * The operator's review of platforms' sellers through the API, as the audit console's forms do it
 * (apps/web/src/audit-console/account-review.controller.ts): approve, reject with a reason, or ask for documents by
 * a due instant. Each decision is the account's event naming who took it; the platform is told (ACCOUNT_UPDATED).
 */
@ApiTags('admin')
@Controller('v1/admin/accounts')
@AdminApi()
export class AdminAccountReviewController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(Clocks) private readonly clocks: Clocks,
  ) {}

  private async present(message: string, account: Account, decidedBy: VerificationDecider) {
    const destination = (await anyAccount(this.db, account.accountId))?.destination;
    const reviewed: ReviewedAccountResponse = { ...presentAccount(account, destination, this.config.payoutHoldAfterDestinationChangeMs, (await this.clocks.ofAccount(account)).clock.now()), decidedBy };
    return envelope(message, reviewed);
  }

  @Post(':accountId/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify an account waiting for review (PENDING_VERIFICATION or RESTRICTED); it meets every requirement staff asked of it' })
  @ApiEnvelope(ReviewedAccountResponse, { message: 'Account verified' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['ACCOUNT_NOT_UNDER_REVIEW', 'ACCOUNT_REQUIREMENTS_MISSING', 'CONCURRENT_MODIFICATION'] })
  async approve(@Param('accountId') accountId: string, @Body() body: ApproveAccountDto, @RequestMetadata() metadata: EventMetadata) {
    const reason = body.reason?.trim();
    const decidedBy = staffOf(metadata);
    const account = await this.commands.execute(new ReviewAccountCommand(accountId, { approve: true, ...(reason ? { reason } : {}) }, decidedBy, metadata));
    return this.present('Account verified', account, decidedBy);
  }

  @Post(':accountId/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject an account waiting for review, with the reason the platform is told; a rejection is final' })
  @ApiEnvelope(ReviewedAccountResponse, { message: 'Account rejected' })
  @ApiProblems({ 404: ['ABC_001'], 409: ['ACCOUNT_NOT_UNDER_REVIEW', 'CONCURRENT_MODIFICATION'] })
  async reject(@Param('accountId') accountId: string, @Body() body: RejectAccountDto, @RequestMetadata() metadata: EventMetadata) {
    const decidedBy = staffOf(metadata);
    const account = await this.commands.execute(new ReviewAccountCommand(accountId, { approve: false, reason: body.reason.trim() }, decidedBy, metadata));
    return this.present('Account rejected', account, decidedBy);
  }

  @Post(':accountId/request-information')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Ask an account for documents, each by a due instant (replacing what was asked before): the account lists them as requirementsDue; an upload of a kind meets it; one past due restricts its payouts until it arrives or the account is approved',
  })
  @ApiEnvelope(ReviewedAccountResponse, { message: 'Information requested' })
  @ApiProblems({ 400: ['ACCOUNT_REQUIREMENTS_INVALID', 'INVALID_DATE_TIME', 'BadRequestException'], 404: ['ABC_001'], 409: ['ACCOUNT_REJECTED_IS_FINAL', 'ACCOUNT_CLOSED', 'CONCURRENT_MODIFICATION'] })
  async requestInformation(@Param('accountId') accountId: string, @Body() body: RequestAccountInformationDto, @RequestMetadata() metadata: EventMetadata) {
    const requirements = body.requirements.map(({ kind, dueBy }) => ({ kind, dueBy }));
    const decidedBy = staffOf(metadata);
    const account = await this.commands.execute(new RequestAccountInformationCommand(accountId, requirements, body.reason?.trim(), decidedBy, metadata));
    return this.present('Information requested', account, decidedBy);
  }
}
