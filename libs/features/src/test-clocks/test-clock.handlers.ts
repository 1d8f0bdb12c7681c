import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newTestClockId, streams, type TestClock, testClockDecider } from '@app/domain';
import { CLOCK, type Clock, CommandRunner, newStream } from '@app/infrastructure';
import { CreateTestClockCommand, DeleteTestClockCommand } from './test-clock.commands';

/** A test clock of the key's tenant, at its frozen time; a live tenant's is refused by the decider (TEST_CLOCK_LIVE_MODE) before anything is written. */
@CommandHandler(CreateTestClockCommand)
export class CreateTestClockHandler implements ICommandHandler<CreateTestClockCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, request, metadata }: CreateTestClockCommand): Promise<TestClock> {
    const testClockId = newTestClockId();
    const { state } = await this.runner.run(
      streams.testClock(testClockId),
      testClockDecider,
      {
        type: 'CreateTestClock',
        data: { testClockId, merchantId: merchant.merchantId, mode: merchant.mode, name: request.name ?? null, frozenTime: new Date(request.frozenTime).toISOString(), at: this.clock.now().toISOString() },
      },
      metadata,
      newStream(testClockDecider),
    );
    return state.clock!;
  }
}

/** A deleted clock is not found any more; its objects keep the time it stood at. */
@CommandHandler(DeleteTestClockCommand)
export class DeleteTestClockHandler implements ICommandHandler<DeleteTestClockCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchant, testClockId, metadata }: DeleteTestClockCommand): Promise<void> {
    await this.runner.run(streams.testClock(testClockId), testClockDecider, { type: 'DeleteTestClock', data: { testClockId, merchantId: merchant.merchantId, at: this.clock.now().toISOString() } }, metadata);
  }
}
