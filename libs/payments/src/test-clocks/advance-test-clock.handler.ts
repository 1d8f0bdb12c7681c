import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { DomainError, streams, type TestClock, testClockDecider } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CLOCK, type Clock, clockAt, CommandRunner, type ObjectClock } from '@app/infrastructure';
import { ProjectionProgress, testClockDeadlines, testClockRequirementDeadlines, testClockSchedules } from '@app/read-models';
import { ExpirePaymentCommand } from '../flow/expire-payment/expire-payment.command';
import { ReleaseDueCommand } from '../flow/release-due/release-due.command';
import { RequestScheduledPayoutCommand } from '../flow/request-scheduled-payout/request-scheduled-payout.command';
import { RestrictPastDueAccountCommand } from '../flow/restrict-past-due-account/restrict-past-due-account.command';
import { AdvanceTestClockCommand } from './advance-test-clock.command';
import { type ClockJob, clockJobKey, clockWorkDue } from './test-clock-work';

/** How long an advance waits for the read models to show what the log holds before it reads its objects' due work. */
const VIEWS_WAIT_MS = 30_000;

/** More work than a clock's objects can have in one advance: a loop, not a test. */
const MAX_JOBS = 10_000;

/** The read models did not catch up with the log in time: the clock stays advancing, and the same advance asked again resumes it. */
export class TestClockViewsBehind extends DomainError {
  constructor() {
    super('TEST_CLOCK_VIEWS_BEHIND', 'The read models are behind the log, so the clock’s due work cannot be read yet; it stays advancing: ask for the same frozenTime again to resume', 'unavailable');
  }
}

/**
 * A test clock's advance (docs/concepts/time.md): the new time is appended first (the clock is then
 * `advancing`), the due work of its objects runs one job at a time, each on a clock standing at its own
 * instant, the read models being read again after each (a release may call for a payout), until none is
 * left; then the advance is finished (`ready`). The schedulers' real-time timers play no part.
 */
@CommandHandler(AdvanceTestClockCommand)
export class AdvanceTestClockHandler implements ICommandHandler<AdvanceTestClockCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ProjectionProgress) private readonly progress: ProjectionProgress,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ merchantId, testClockId, frozenTime, metadata }: AdvanceTestClockCommand): Promise<TestClock> {
    const stream = streams.testClock(testClockId);
    const at = new Date(frozenTime).toISOString();
    const { state } = await this.runner.run(stream, testClockDecider, { type: 'AdvanceTestClock', data: { testClockId, merchantId, frozenTime: at, at: this.clock.now().toISOString() } }, metadata);
    const advancing = state.clock!;
    await this.runDue(testClockId, Date.parse(advancing.advancingFrom!), Date.parse(advancing.frozenTime));
    const finished = await this.runner.run(stream, testClockDecider, { type: 'FinishTestClockAdvance', data: { frozenTime: advancing.frozenTime, at: this.clock.now().toISOString() } }, metadata);
    return finished.state.clock!;
  }

  private async runDue(testClockId: string, from: number, to: number): Promise<void> {
    const done = new Set<string>();
    while (done.size < MAX_JOBS) {
      if (!(await this.progress.waitFor(await this.store.head(), VIEWS_WAIT_MS))) throw new TestClockViewsBehind();
      const [deadlines, schedules, requirementDeadlines] = await Promise.all([
        testClockDeadlines(this.db, testClockId, new Date(to)),
        testClockSchedules(this.db, testClockId),
        testClockRequirementDeadlines(this.db, testClockId, new Date(to)),
      ]);
      const [next] = clockWorkDue({ ...deadlines, schedules, requirementDeadlines }, from, to, done);
      if (!next) return;
      await this.run(next, { clock: clockAt(next.runAt), testClockId });
      done.add(clockJobKey(next));
    }
  }

  private async run(job: ClockJob, clock: ObjectClock): Promise<void> {
    switch (job.kind) {
      case 'restrict-past-due':
        await this.commands.execute(new RestrictPastDueAccountCommand(job.id, clock));
        return;
      case 'expire':
        await this.commands.execute(new ExpirePaymentCommand(job.id, clock));
        return;
      case 'auto-release':
        await this.commands.execute(new ReleaseDueCommand(job.id, clock));
        return;
      case 'scheduled-payout':
        await this.commands.execute(new RequestScheduledPayoutCommand(job.id, job.period!, clock));
        return;
    }
  }
}
