import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedMerchant } from '@app/credentials';
import { streams, TestClockLiveMode, TestClockNotFound, testClockDecider } from '@app/domain';
import type { EventMetadata } from '@app/event-store';
import { CommandRunner } from '@app/infrastructure';
import { AdvanceTestClockCommand } from '@app/payments';
import { envelope, ApiEnvelope, ApiProblems, MerchantApi, CurrentMerchant, RequestMetadata } from '@app/http';
import { CreateTestClockCommand, DeleteTestClockCommand, presentTestClock } from '@app/features/test-clocks';
import { AdvanceTestClockDto, CreateTestClockDto } from './test-clock.dto';
import { DeletedTestClockResponse, TestClockResponse } from './test-clock.response';

const TEST_CLOCK_ID = /^clock_[0-9a-f]{24}$/;

/** Test clocks are test mode's: a live key is told so rather than answered as if the clock were another tenant's. */
function testTenant(merchant: AuthenticatedMerchant): AuthenticatedMerchant {
  if (merchant.mode !== 'test') throw new TestClockLiveMode();
  return merchant;
}

/** An id of no test clock's shape names none. */
function clockId(testClockId: string): string {
  if (!TEST_CLOCK_ID.test(testClockId)) throw new TestClockNotFound(testClockId);
  return testClockId;
}

/**
 * Test clocks (docs/concepts/time.md, docs/guides/test-clocks.md): a time of their own for the test
 * orders, escrows and accounts created on them (`testClockId`), moved forward by an advance that runs
 * what those objects waited for. The key's own tenant's only: another tenant's clock is not found.
 */
@ApiTags('test clocks')
@Controller('v1/trdp/test-clocks')
@MerchantApi()
export class TestClocksController {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a test clock standing at frozenTime (test mode only); name it as testClockId when you create an order, escrow or account' })
  @ApiEnvelope(TestClockResponse, { status: 201, message: 'Test clock created' })
  @ApiProblems({ 400: ['TEST_CLOCK_LIVE_MODE'], 409: ['CONCURRENT_MODIFICATION'] })
  async create(@Body() body: CreateTestClockDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const clock = await this.commands.execute(new CreateTestClockCommand(testTenant(merchant), body, metadata));
    return envelope('Test clock created', presentTestClock(clock));
  }

  @Get(':testClockId')
  @ApiOperation({ summary: 'A test clock: its time, and whether it is still advancing' })
  @ApiEnvelope(TestClockResponse, { message: 'Test clock' })
  @ApiProblems({ 400: ['TEST_CLOCK_LIVE_MODE'], 404: ['ABC_001'] })
  async get(@Param('testClockId') testClockId: string, @CurrentMerchant() merchant: AuthenticatedMerchant) {
    const id = clockId(testClockId);
    const { state } = await this.runner.read(streams.testClock(id), testClockDecider);
    const clock = state.clock;
    if (!clock || clock.deleted || clock.merchantId !== testTenant(merchant).merchantId) throw new TestClockNotFound(id);
    return envelope('Test clock', presentTestClock(clock));
  }

  @Post(':testClockId/advance')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Move a test clock forward to frozenTime: what its objects waited for by then (expiries, automatic releases, holding periods, scheduled payouts) happens in order, each at its own time; answered once the clock is ready again. The same frozenTime again resumes an advance that was interrupted.',
  })
  @ApiEnvelope(TestClockResponse, { message: 'Test clock advanced' })
  @ApiProblems({ 400: ['TEST_CLOCK_LIVE_MODE', 'TEST_CLOCK_TIME_NOT_LATER'], 404: ['ABC_001'], 409: ['TEST_CLOCK_ADVANCING', 'CONCURRENT_MODIFICATION'], 503: ['TEST_CLOCK_VIEWS_BEHIND'] })
  async advance(@Param('testClockId') testClockId: string, @Body() body: AdvanceTestClockDto, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const clock = await this.commands.execute(new AdvanceTestClockCommand(testTenant(merchant).merchantId, clockId(testClockId), body.frozenTime, metadata));
    return envelope('Test clock advanced', presentTestClock(clock));
  }

  @Delete(':testClockId')
  @ApiOperation({ summary: 'Delete a test clock: it is not found any more, and its objects stay at the time it stood at' })
  @ApiEnvelope(DeletedTestClockResponse, { message: 'Test clock deleted' })
  @ApiProblems({ 400: ['TEST_CLOCK_LIVE_MODE'], 404: ['ABC_001'], 409: ['TEST_CLOCK_ADVANCING', 'CONCURRENT_MODIFICATION'] })
  async delete(@Param('testClockId') testClockId: string, @CurrentMerchant() merchant: AuthenticatedMerchant, @RequestMetadata() metadata: EventMetadata) {
    const id = clockId(testClockId);
    await this.commands.execute(new DeleteTestClockCommand(testTenant(merchant), id, metadata));
    return envelope('Test clock deleted', { testClockId: id, deleted: true });
  }
}
