import { randomBytes } from 'node:crypto';
import { SANDBOX_PHONES } from '@app/payments';
import { CHAPA_SIMULATOR_PHONES, ChapaSimulator } from '../../libs/payments/src/testing/chapa-simulator';
import type { Cli } from './provider-reconciliation';
import type { Secret } from './records';

/** The phones the workload's customers pay from. */
export interface CustomerPhones {
  pays: string;
  insufficientFunds: string;
  neverAnswers: string;
}

export type ChaosMode = 'test' | 'live';

/**
 * The payment provider the run's service talks to, and what the run must know of it. Its name is the
 * live mode's provider; the test mode's is the sandbox on every deployment (docs/concepts/modes.md),
 * and a run without a live provider has test tenants only.
 */
export interface ChaosProvider {
  name: 'sandbox' | 'chapa';
  /** Settings of every process of the service. */
  env: Record<string, string>;
  /** The modes whose tenants the workload runs: test only without a live provider, else both side by side. */
  modes: readonly ChaosMode[];
  /** The phones a mode's customers pay from: the sandbox's in test, the live provider's in live. */
  phonesFor(mode: ChaosMode): CustomerPhones;
  /** Phones whose payment the provider of their mode answers by itself (others never answer). */
  answering: ReadonlySet<string>;
  /** Every request the live provider received (path and body), for the check that no test object reached it; undefined without one. */
  liveRequests(): readonly { path: string; body: string }[] | undefined;
  /** Settings that must never show anywhere (the secrets check). */
  secrets: Secret[];
  /** What the provider did to its notifications, for the report. */
  notificationFaults(): { lost: number; repeated: number; delayed: number } | undefined;
  /** The provider's settlement statement of an Africa/Addis_Ababa day, as finance staff get it. */
  statement(day: string, cli: Cli): Promise<string>;
  close(): Promise<void>;
}

const SANDBOX_CUSTOMERS: CustomerPhones = { pays: SANDBOX_PHONES.succeeds, insufficientFunds: SANDBOX_PHONES.insufficientFunds, neverAnswers: SANDBOX_PHONES.neverAnswers };
const SANDBOX_ANSWERING = [SANDBOX_PHONES.succeeds, SANDBOX_PHONES.insufficientFunds, SANDBOX_PHONES.refundsRejected];

/** The sandbox inside the service: it notifies the API its worker names. Without a live provider, the run's tenants are test ones. */
function sandbox(): ChaosProvider {
  return {
    name: 'sandbox',
    env: { PAYMENT_PROVIDER: 'sandbox' },
    modes: ['test'],
    phonesFor: () => SANDBOX_CUSTOMERS,
    answering: new Set(SANDBOX_ANSWERING),
    liveRequests: () => undefined,
    secrets: [],
    notificationFaults: () => undefined,
    statement: async (day, cli) => {
      const run = await cli(['provider-statement', '--mode', 'test', '--date', day]);
      if (run.code !== 0) throw new Error(`cli provider-statement exited ${run.code}: ${run.stderr.trim()}`);
      return run.stdout;
    },
    close: async () => undefined,
  };
}

/**
 * Chapa's simulator in the run's own process, so it outlives every kill: its webhooks go to the two
 * APIs in turn (a delivery to a killed one is tried again, at the other), and a tenth of them are
 * lost, a fifth sent twice, and any held back up to two seconds. It is the live mode's provider; the
 * test tenants beside the live ones pay through the sandbox inside the service.
 */
async function chapa(apis: () => string[]): Promise<ChaosProvider> {
  const keys = {
    secretKey: `CHASECK_TEST-${randomBytes(16).toString('hex')}`,
    encryptionKey: randomBytes(12).toString('hex'),
    webhookSecret: `whsec-${randomBytes(16).toString('hex')}`,
  };
  let next = 0;
  const simulator = new ChapaSimulator({
    ...keys,
    delayMs: 300,
    webhookUrl: () => `${apis()[next++ % apis().length]}/v1/providers/chapa/notifications`,
    webhookFaults: { loseRate: 0.1, repeatRate: 0.2, maxDelayMs: 2000 },
  });
  const baseUrl = await simulator.start();
  return {
    name: 'chapa',
    env: { PAYMENT_PROVIDER: 'chapa', CHAPA_SECRET_KEY: keys.secretKey, CHAPA_ENCRYPTION_KEY: keys.encryptionKey, CHAPA_WEBHOOK_SECRET: keys.webhookSecret, CHAPA_BASE_URL: baseUrl },
    modes: ['test', 'live'],
    phonesFor: (mode) =>
      mode === 'test' ? SANDBOX_CUSTOMERS : { pays: CHAPA_SIMULATOR_PHONES.approves, insufficientFunds: CHAPA_SIMULATOR_PHONES.declines, neverAnswers: CHAPA_SIMULATOR_PHONES.neverAnswers },
    answering: new Set([...SANDBOX_ANSWERING, CHAPA_SIMULATOR_PHONES.approves, CHAPA_SIMULATOR_PHONES.declines, CHAPA_SIMULATOR_PHONES.refundRefused]),
    liveRequests: () => simulator.requests,
    secrets: [
      { name: 'CHAPA_SECRET_KEY', value: keys.secretKey },
      { name: 'CHAPA_ENCRYPTION_KEY', value: keys.encryptionKey },
      { name: 'CHAPA_WEBHOOK_SECRET', value: keys.webhookSecret },
    ],
    notificationFaults: () => ({ ...simulator.webhookFaultCounts }),
    // Chapa's comes from its dashboard, not from our CLI.
    statement: async (day) => simulator.statement(day),
    close: () => simulator.close(),
  };
}

export function startProvider(name: ChaosProvider['name'], apis: () => string[]): Promise<ChaosProvider> {
  return name === 'chapa' ? chapa(apis) : Promise.resolve(sandbox());
}
