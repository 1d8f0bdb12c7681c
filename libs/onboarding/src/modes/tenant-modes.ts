import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CredentialStore, type TenantModeReader } from '@app/credentials';
import { waitingOutDisconnections } from '@app/database';
import { ESCROW_PAYMENT_EVENTS, LEGACY_MODE_KEY, legacyModeDecider, type Mode, ORDER_PAYMENT_EVENTS, streams } from '@app/domain';
import { LOG_READER, type LogPosition, type LogReader } from '@app/event-store';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { AccountDirectory } from '../accounts/account-directory';

const PAGE = 500;

/** How long the start waits out a PostgreSQL that drops its connections while it decides, as opening the database waits (libs/infrastructure/src/infrastructure.module.ts). */
const DECIDE_WITHIN_MS = 60_000;

/**
 * Every tenant's mode, and the one decision that gives merchants registered before modes theirs: made at
 * the first start of the service of this release (LegacyModeAtStart), recorded as LegacyModeDecided in
 * `deployment-modes-legacy`, and read again on every later start, whatever its provider. The operator's CLI
 * never makes it: run without the service's settings (PAYMENT_PROVIDER above all), it would decide from
 * settings that are not the deployment's. It reads the decision, and until there is one, a merchant
 * registered before modes has none (docs/concepts/modes.md).
 */
@Injectable()
export class TenantModes implements TenantModeReader {
  private readonly logger = new Logger(TenantModes.name);
  private decided?: Promise<Mode>;

  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(AccountDirectory) private readonly accounts: AccountDirectory,
    @Inject(LOG_READER) private readonly log: LogReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The service's start: the recorded decision, or (the first start of this release) the one it makes and records now. */
  decideAtStart(): Promise<Mode> {
    return (this.decided ??= this.decideWaitingOutDisconnections());
  }

  /**
   * A process restarted while PostgreSQL terminates connections (a restart, a failover) would otherwise
   * exit at its start; the decision reads before it appends and is made once, so asking again is safe.
   */
  private decideWaitingOutDisconnections(): Promise<Mode> {
    return waitingOutDisconnections(() => this.decide(), {
      withinMs: DECIDE_WITHIN_MS,
      retrying: (error, wait) => this.logger.warn(`PostgreSQL dropped the connection while the mode of data written before modes was decided (${String(error)}); trying again in ${wait} ms`),
    });
  }

  /** The mode of data written before modes: undefined while no start of the service has decided it. */
  async legacyMode(): Promise<Mode | undefined> {
    if (this.decided) return this.decided;
    return (await this.runner.read(streams.deploymentModes(LEGACY_MODE_KEY), legacyModeDecider)).state.mode;
  }

  async modeOf(tenantId: string): Promise<Mode | undefined> {
    // In the service, a merchant from before modes has its mode once the start has decided it.
    await this.decided;
    const own = await this.credentials.modeOf(tenantId);
    if (own) return own.mode;
    const account = await this.accounts.find(tenantId);
    return account && (await this.credentials.modeOf(account.merchantId))?.mode;
  }

  private async decide(): Promise<Mode> {
    const stream = streams.deploymentModes(LEGACY_MODE_KEY);
    let { state } = await this.runner.read(stream, legacyModeDecider);
    if (!state.mode) {
      const { mode, reason } = await this.legacyModeFromHistory();
      ({ state } = await this.runner.run(stream, legacyModeDecider, { type: 'DecideLegacyMode', data: { mode, reason, at: this.clock.now().toISOString() } }, { actor: { type: 'system', id: 'deployment-modes' } }));
      this.logger.log(`Data written before modes is ${state.mode} mode: ${reason}`);
    }
    await this.credentials.assignLegacyMode(state.mode!);
    return state.mode!;
  }

  /**
   * Test when the deployment ran on the sandbox, or its history holds money the sandbox settled (a
   * sandbox-built data directory started with a live key): that money never existed. Live otherwise.
   */
  private async legacyModeFromHistory(): Promise<{ mode: Mode; reason: string }> {
    if (this.config.paymentProvider === 'sandbox') return { mode: 'test', reason: 'PAYMENT_PROVIDER=sandbox' };
    const types = [ORDER_PAYMENT_EVENTS.initiated, ESCROW_PAYMENT_EVENTS.initiated];
    let after: LogPosition | undefined;
    for (;;) {
      const page = await this.log.page({ types, limit: PAGE, after });
      if (page.some((event) => (event.data as { provider?: string }).provider === 'sandbox')) return { mode: 'test', reason: 'the history holds payments the sandbox settled' };
      if (page.length < PAGE) return { mode: 'live', reason: `PAYMENT_PROVIDER=${this.config.paymentProvider} and no payment in the history went through the sandbox` };
      after = page.at(-1)!.position;
    }
  }
}

/**
 * The service's start decides the legacy mode (TenantModes.decideAtStart): begun before any module is
 * bootstrapped, so every question of a mode waits for it, and awaited before anything is served and
 * before any worker moves money. Provided by the API and the worker, never by the CLI.
 */
@Injectable()
export class LegacyModeAtStart implements OnModuleInit, OnApplicationBootstrap {
  private decided?: Promise<Mode>;

  constructor(@Inject(TenantModes) private readonly modes: TenantModes) {}

  onModuleInit(): void {
    this.decided = this.modes.decideAtStart();
    // Awaited below; a failure here is the start's.
    this.decided.catch(() => undefined);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.decided;
  }
}
