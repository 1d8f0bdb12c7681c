import { DomainError, type Mode } from '@app/domain';
import type { TenantModeReader } from '@app/credentials';
import type { PaymentProvider } from './payment-provider.port';

/** A live key's payment, refund or payout on a deployment with no live provider (PAYMENT_PROVIDER=sandbox): nothing is written. */
export class LiveModeNotConfigured extends DomainError {
  constructor() {
    super(
      'LIVE_MODE_NOT_CONFIGURED',
      'This deployment has no live payment provider (PAYMENT_PROVIDER=sandbox): live money cannot move. Use your test keys (sk_test_…), or configure a live provider (docs/guides/test-to-live.md)',
      'conflict',
    );
  }
}

/** Tenants (and accounts) whose mode this process remembers: a provider is chosen for each payment, notification and payout. */
const REMEMBERED_MODES = 50_000;

/**
 * The providers of one deployment, one per mode (docs/concepts/modes.md): test money moves through the
 * sandbox, always; live money through the provider configured, and nowhere when there is none. The
 * provider of an object is its tenant's mode's, never the deployment's: a live provider is never asked
 * about a test object.
 */
export class PaymentProviders {
  /** The modes read so far: a tenant's mode, once it has one, never changes (credential-store.ts only assigns one where there was none). */
  private readonly recorded = new Map<string, Mode>();

  constructor(
    private readonly test: PaymentProvider,
    private readonly live: PaymentProvider | undefined,
    private readonly modes: TenantModeReader,
  ) {}

  forMode(mode: Mode): PaymentProvider {
    if (mode === 'test') return this.test;
    if (!this.live) throw new LiveModeNotConfigured();
    return this.live;
  }

  /** The provider of a tenant's (or a platform's account's) money. */
  async forTenant(tenantId: string): Promise<PaymentProvider> {
    return this.forMode(await this.modeOf(tenantId));
  }

  async modeOf(tenantId: string): Promise<Mode> {
    const known = this.recorded.get(tenantId);
    if (known) return known;
    const mode = await this.modes.modeOf(tenantId);
    if (!mode) throw new Error(`${tenantId} is no tenant and no account: it has no mode`);
    if (this.recorded.size >= REMEMBERED_MODES) this.recorded.delete(this.recorded.keys().next().value!);
    this.recorded.set(tenantId, mode);
    return mode;
  }

  /** Whether live money may move here; refused before anything is written (LIVE_MODE_NOT_CONFIGURED). */
  assertCanMove(mode: Mode): void {
    this.forMode(mode);
  }

  /**
   * The same of a tenant's (or a platform's account's) money, for a command that moves it: the rule
   * every edge's request meets in the command itself, an API key's as a dashboard session's.
   */
  async assertTenantCanMove(tenantId: string): Promise<void> {
    if (!(await this.tenantCanMove(tenantId))) throw new LiveModeNotConfigured();
  }

  /** Whether a tenant's money may move here: a deployment with a live provider moves every tenant's without asking its mode. */
  async tenantCanMove(tenantId: string): Promise<boolean> {
    return this.live !== undefined || (await this.modeOf(tenantId)) === 'test';
  }

  /** The provider a notification route names, and the mode whose objects it may report on. */
  named(name: string): { provider: PaymentProvider; mode: Mode } | undefined {
    if (name === this.test.name) return { provider: this.test, mode: 'test' };
    return this.live?.name === name ? { provider: this.live, mode: 'live' } : undefined;
  }

  /** Each provider once, the sandbox first. */
  all(): PaymentProvider[] {
    return this.live ? [this.test, this.live] : [this.test];
  }
}
