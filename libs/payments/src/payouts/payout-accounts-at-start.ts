import { Inject, Injectable, Logger, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { waitingOutDisconnections } from '@app/database';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { carryOverPayoutAccounts } from './carry-over-payout-accounts';

/** As long as the start waits for the legacy mode's decision (libs/onboarding/src/modes/tenant-modes.ts). */
const CARRY_OVER_WITHIN_MS = 60_000;

/**
 * Every start of the service (API, worker, CLI) carries the payout account streams of earlier releases
 * over (carryOverPayoutAccounts) before anything decides on a payout: begun before any module is
 * bootstrapped and awaited before anything is served or any worker moves money, so the payout code
 * reads the newer streams only. With none left it costs one listing and appends nothing; processes
 * starting together append at the revisions they read, so one carries each stream and the others find
 * it carried (docs/operations/running.md).
 */
@Injectable()
export class PayoutAccountsAtStart implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(PayoutAccountsAtStart.name);
  private carried?: Promise<string[]>;

  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // A process restarted while PostgreSQL terminates connections (a restart, a failover) waits them out
    // rather than exit at its start: the carry-over appends at the revisions it read, so asking again is safe.
    this.carried = waitingOutDisconnections(() => carryOverPayoutAccounts(this.runner, this.store, this.clock.now().toISOString()), {
      withinMs: CARRY_OVER_WITHIN_MS,
      retrying: (error, wait) => this.logger.warn(`PostgreSQL dropped the connection while the payout account streams were carried over (${String(error)}); trying again in ${wait} ms`),
    });
    // Awaited below; a failure here is the start's.
    this.carried.catch(() => undefined);
  }

  async onApplicationBootstrap(): Promise<void> {
    const carried = await this.carried!;
    if (carried.length > 0) this.logger.log(`Carried the payout account streams of ${carried.length} merchant(s) over to their payouts' own streams`);
  }
}

/** Imported by every start, next to the decision of the tenants' modes (LegacyModeAtStart) and before any worker. */
@Module({ providers: [PayoutAccountsAtStart] })
export class PayoutAccountsAtStartModule {}
