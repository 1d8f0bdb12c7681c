import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SETTINGS, type SettingName } from './settings';

export type Role = 'all' | 'api' | 'rest' | 'faces' | 'worker' | 'projector';

export interface AppConfig {
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  /** Unset: PGlite inside dataDir. */
  databaseUrl?: string;
  databaseSchema: string;
  /** Connections this process keeps to PostgreSQL at most (one more listens for notifications). */
  databasePoolSize: number;
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreConnectionString?: string;
  redisUrl?: string;
  /** Namespaces every Redis key of this deployment (BullMQ queues). */
  redisPrefix: string;
  adminApiKey?: string;
  paymentProvider: 'sandbox' | 'chapa';
  /** Chapa's credentials and address, when PAYMENT_PROVIDER=chapa. */
  chapa?: ChapaConfig;
  /** How long the sandbox provider's simulated customer takes to answer a push. */
  sandboxDelayMs: number;
  /** Where the sandbox posts its notifications from a process without HTTP (default PUBLIC_BASE_URL). */
  sandboxNotifyUrl?: string;
  /** First wait before a refund the provider refused is tried again (doubles up to an hour). */
  refundRetryMs: number;
  /** Waits between callback attempts after the first (about three days by default); then ABANDONED. */
  callbackRetryScheduleMs: number[];
  callbackTimeoutMs: number;
  /** Slow clients are cut off: the request head and the whole request must arrive in time; idle keep-alive connections close. */
  httpTimeouts: HttpTimeouts;
  /** How often pending callbacks and due payment work are re-queued from the read models. */
  reconcileIntervalMs: number;
  /** How long a push or refund may go without news before the provider is asked about it (then after doubling waits). */
  providerReconcileAfterMs: number;
  /** Requests per minute per API secret (or per client address without one); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Let callbackURLs reach private, loopback and link-local addresses (local development). */
  callbackAllowPrivateUrls: boolean;
  /** 32 bytes; encrypts webhook secrets at rest. */
  secretsKey: Buffer;
  role: Role;
  /** Create (once) and print a demo merchant on start. */
  demoMerchant: boolean;
  /** How long a command's response waits for the projector to reach its events. */
  readYourWritesTimeoutMs: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** How long a dashboard or audit console sign-in lasts. */
  consoleSessionTtlMs: number;
  /** How long an account's payouts wait after its payout destination changes. */
  payoutHoldAfterDestinationChangeMs: number;
  /** A dispute open longer than this many days is listed as overdue in the audit console. */
  disputeMaxDays: number;
  /** A payable below zero for longer than this many days is listed in the audit console. */
  negativeBalanceAlertDays: number;
  /** The Secure flag of console cookies; `auto`: when the request came over https or PUBLIC_BASE_URL is https. */
  cookieSecure: 'auto' | 'true' | 'false';
}

export interface ChapaConfig {
  /** `CHASECK-…` (live) or `CHASECK_TEST-…` (test mode): the bearer token of every call. */
  secretKey: string;
  /** 24 characters: the 3DES key a one-time code is encrypted with. */
  encryptionKey: string;
  /** The secret hash set beside the webhook URL in Chapa's dashboard: keys the notifications' HMAC. */
  webhookSecret: string;
  /** Chapa's API, `https://api.chapa.co/v1` unless pointed elsewhere (a simulator). */
  baseUrl: string;
}

export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

export class ConfigError extends Error {}

export const APP_CONFIG = Symbol('APP_CONFIG');

type Env = Record<string, string | undefined>;

/** A variable as set, trimmed; unset and blank read alike. */
function raw(env: Env, name: SettingName): string | undefined {
  return env[name]?.trim() || undefined;
}

/** A variable, or its plain default from SETTINGS. */
function text(env: Env, name: SettingName): string {
  return raw(env, name) ?? SETTINGS[name].default!;
}

function oneOf<T extends string>(env: Env, name: SettingName, allowed: readonly T[], fallback = SETTINGS[name].default as T): T {
  const value = raw(env, name) ?? fallback;
  if (!allowed.includes(value as T)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

function integer(env: Env, name: SettingName, min: number, max: number): number {
  const value = Number(text(env, name));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(raw(env, name))})`);
  }
  return value;
}

function schedule(env: Env, name: SettingName): number[] {
  const value = text(env, name);
  const steps = value.split(',').map((step) => Number(step.trim()));
  if (steps.length === 0 || steps.length > 50 || steps.some((step) => !Number.isInteger(step) || step < 0 || step > 7 * 86_400_000)) {
    throw new ConfigError(`${name} must be a comma-separated list of waits in milliseconds (got ${JSON.stringify(value)})`);
  }
  return steps;
}

/**
 * Defaults: 10 s for the head and 30 s for a whole request (a 256 KiB body on a slow phone link);
 * keep-alive 72 s, longer than the 60 s idle timeout of common load balancers, so a proxy never
 * reuses a connection the service has just closed.
 */
function httpTimeouts(env: Env): HttpTimeouts {
  const headersMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 100, 600_000);
  const requestMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 100, 3_600_000);
  // Node refuses a head timeout longer than the whole request's.
  if (headersMs > requestMs) throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  return { headersMs, requestMs, keepAliveMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 100, 600_000) };
}

function parseSecretsKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('SECRETS_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** In embedded mode the key is generated once and kept beside the data it protects. */
function loadOrCreateSecretsKey(dataDir: string): Buffer {
  const file = join(dataDir, 'secrets.key');
  if (existsSync(file)) return parseSecretsKey(readFileSync(file, 'utf8').trim());
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * Chapa's settings (https://developer.chapa.co/integrations/accept-payments for the keys). A secret's
 * value never appears in an error: only the variable's name and what is wrong with it.
 */
function chapaConfig(env: Env): ChapaConfig {
  const secret = (name: SettingName, valid: (value: string) => boolean, expected: string): string => {
    const value = raw(env, name);
    if (!value) throw new ConfigError(`PAYMENT_PROVIDER=chapa needs ${name} (${expected})`);
    if (!valid(value)) throw new ConfigError(`${name} must be ${expected}`);
    return value;
  };
  const baseUrl = (text(env, 'CHAPA_BASE_URL')).replace(/\/+$/, '');
  let protocol: string | undefined;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw new ConfigError(`CHAPA_BASE_URL must be an absolute http(s) URL (got ${JSON.stringify(baseUrl)})`);
  return {
    secretKey: secret('CHAPA_SECRET_KEY', (v) => /^CHASECK(_TEST)?-[A-Za-z0-9]{8,}$/.test(v), 'the secret key from Chapa\'s dashboard, CHASECK-… or CHASECK_TEST-…'),
    encryptionKey: secret('CHAPA_ENCRYPTION_KEY', (v) => /^[\x21-\x7e]{24}$/.test(v), 'the 24-character encryption key from Chapa\'s dashboard'),
    webhookSecret: secret('CHAPA_WEBHOOK_SECRET', (v) => v.length >= 12, 'the webhook secret hash set in Chapa\'s dashboard, at least 12 characters'),
    baseUrl,
  };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = integer(env, 'PORT', 0, 65535);
  const host = text(env, 'HOST');
  const dataDir = resolve(text(env, 'DATA_DIR'));
  const databaseUrl = raw(env, 'DATABASE_URL');
  const eventStore = oneOf(env, 'EVENT_STORE', ['postgres', 'eventstoredb'] as const);
  const databaseSchema = text(env, 'DATABASE_SCHEMA');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError('DATABASE_SCHEMA must be a lower-case SQL identifier');
  }
  if (eventStore === 'eventstoredb' && !env.EVENTSTORE_CONNECTION_STRING) {
    throw new ConfigError('EVENT_STORE=eventstoredb needs EVENTSTORE_CONNECTION_STRING');
  }
  if (eventStore === 'eventstoredb' && !databaseUrl) {
    throw new ConfigError('EVENT_STORE=eventstoredb keeps its read models in PostgreSQL: set DATABASE_URL');
  }
  const publicBaseUrl = (raw(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an absolute URL (got ${JSON.stringify(publicBaseUrl)})`);
  }
  const adminApiKey = raw(env, 'ADMIN_API_KEY');
  if (adminApiKey !== undefined && adminApiKey.length < 16) {
    throw new ConfigError('ADMIN_API_KEY must be at least 16 characters');
  }
  const configuredKey = raw(env, 'SECRETS_KEY');
  const secretsKey = configuredKey ? parseSecretsKey(configuredKey) : loadOrCreateSecretsKey(dataDir);
  const demoDefault = databaseUrl === undefined ? 'true' : 'false';
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['sandbox', 'chapa'] as const);
  return {
    port,
    host,
    publicBaseUrl,
    dataDir,
    databaseUrl,
    databaseSchema,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 1, 1000),
    eventStore,
    eventStoreConnectionString: raw(env, 'EVENTSTORE_CONNECTION_STRING'),
    redisUrl: raw(env, 'REDIS_URL'),
    redisPrefix: text(env, 'REDIS_PREFIX'),
    adminApiKey,
    paymentProvider,
    ...(paymentProvider === 'chapa' ? { chapa: chapaConfig(env) } : {}),
    sandboxDelayMs: integer(env, 'SANDBOX_DELAY_MS', 0, 60_000),
    sandboxNotifyUrl: raw(env, 'SANDBOX_NOTIFY_URL')?.replace(/\/+$/, '') || undefined,
    refundRetryMs: integer(env, 'REFUND_RETRY_MS', 10, 3_600_000),
    callbackRetryScheduleMs: schedule(env, 'CALLBACK_RETRY_SCHEDULE_MS'),
    callbackTimeoutMs: integer(env, 'CALLBACK_TIMEOUT_MS', 100, 60_000),
    httpTimeouts: httpTimeouts(env),
    reconcileIntervalMs: integer(env, 'RECONCILE_INTERVAL_MS', 100, 3_600_000),
    providerReconcileAfterMs: integer(env, 'PROVIDER_RECONCILE_AFTER_MS', 100, 86_400_000),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 0, 10_000_000),
    // Safe by default: only the embedded quick start, which runs on one machine, may call back to it.
    callbackAllowPrivateUrls: oneOf(env, 'CALLBACK_ALLOW_PRIVATE_URLS', ['true', 'false'] as const, databaseUrl === undefined ? 'true' : 'false') === 'true',
    secretsKey,
    role: oneOf(env, 'ROLE', ['all', 'api', 'rest', 'faces', 'worker', 'projector'] as const),
    demoMerchant: oneOf(env, 'DEMO_MERCHANT', ['true', 'false'] as const, demoDefault) === 'true',
    readYourWritesTimeoutMs: integer(env, 'READ_YOUR_WRITES_TIMEOUT_MS', 0, 60000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['silent', 'error', 'warn', 'info', 'debug'] as const),
    consoleSessionTtlMs: integer(env, 'CONSOLE_SESSION_MINUTES', 1, 43_200) * 60_000,
    disputeMaxDays: integer(env, 'DISPUTE_MAX_DAYS', 0, 3_650),
    negativeBalanceAlertDays: integer(env, 'NEGATIVE_BALANCE_ALERT_DAYS', 0, 3_650),
    payoutHoldAfterDestinationChangeMs: integer(env, 'PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS', 0, 8_760) * 3_600_000,
    cookieSecure: oneOf(env, 'COOKIE_SECURE', ['auto', 'true', 'false'] as const),
  };
}
