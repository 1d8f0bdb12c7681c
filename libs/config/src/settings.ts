/**
 * One setting the service reads from its environment. The loader (app-config.ts) reads variables
 * only by the names of SETTINGS and takes their plain defaults from here, and
 * docs/reference/configuration.md is generated from this table (scripts/docs-reference.js), so the
 * reference cannot name a variable the service ignores nor miss one it reads.
 */
export interface Setting {
  /** What the loader uses when the variable is unset or blank, written as the variable would be. */
  default?: string;
  /** The default in words, when the loader works it out from other settings. */
  defaultText?: string;
  meaning: string;
}

const DEFINITIONS = {
  PORT: { default: '3000', meaning: 'HTTP port' },
  HOST: { default: '0.0.0.0', meaning: 'address to listen on' },
  PUBLIC_BASE_URL: { defaultText: '`http://localhost:PORT`', meaning: 'base of the `payment_url`s handed to customers' },
  DATA_DIR: { default: './data', meaning: 'embedded database, generated secrets key and demo merchant' },
  DATABASE_URL: {
    defaultText: 'unset: PGlite in `DATA_DIR`',
    meaning:
      'PostgreSQL for events, read models and (without `REDIS_URL`) the queues; a list of hosts with `target_session_attrs=read-write` follows a failover ([high availability](../operations/high-availability.md))',
  },
  DATABASE_SCHEMA: { default: 'public', meaning: 'schema to use in `DATABASE_URL` (a lower-case SQL identifier)' },
  DATABASE_POOL_SIZE: { default: '20', meaning: 'connections each process keeps to PostgreSQL at most (one more listens for notifications)' },
  EVENT_STORE: {
    default: 'postgres',
    meaning: '`postgres` (PostgreSQL or PGlite) or `eventstoredb` (KurrentDB/EventStoreDB; read models stay in PostgreSQL, so `DATABASE_URL` is required)',
  },
  EVENTSTORE_CONNECTION_STRING: { meaning: 'with `EVENT_STORE=eventstoredb`: e.g. `kurrentdb://127.0.0.1:2113?tls=false`' },
  ADMIN_API_KEY: { defaultText: 'unset: admin API off', meaning: 'key for `x-admin-key` (16+ characters)' },
  SECRETS_KEY: {
    defaultText: 'generated into `DATA_DIR/secrets.key`',
    meaning: '32 bytes (64 hex characters or base64) that encrypt at rest the webhook secrets, payout account numbers and the answers kept for `Idempotency-Key` replays; set it explicitly whenever more than one process shares the database',
  },
  PAYMENT_PROVIDER: { default: 'sandbox', meaning: "live mode's payment provider: `chapa`, or `sandbox` for none (live money is then refused with LIVE_MODE_NOT_CONFIGURED); test mode always uses the sandbox" },
  CHAPA_SECRET_KEY: { meaning: 'with `chapa`: the secret key, `CHASECK_TEST-…` (test mode) or `CHASECK-…`' },
  CHAPA_ENCRYPTION_KEY: { meaning: 'with `chapa`: the 24-character encryption key that one-time codes are sent under' },
  CHAPA_WEBHOOK_SECRET: { meaning: "with `chapa`: the secret hash set beside the webhook URL in Chapa's dashboard (12+ characters)" },
  CHAPA_BASE_URL: { default: 'https://api.chapa.co/v1', meaning: "with `chapa`: Chapa's API (the tests point it at the simulator)" },
  SANDBOX_NOTIFY_URL: { defaultText: '`PUBLIC_BASE_URL`', meaning: 'where a process without HTTP (a worker) has the sandbox post its notifications' },
  SANDBOX_DELAY_MS: { default: '1500', meaning: "how long the sandbox's simulated customer takes to answer, and the sandbox takes to settle a refund or a payout's transfer" },
  REFUND_RETRY_MS: { default: '30000', meaning: 'first wait before a refused refund is tried again (doubles, up to an hour)' },
  REDIS_URL: {
    defaultText: 'unset: the queues in PostgreSQL (`DATABASE_URL`), or in-process timers when embedded',
    meaning: 'Redis for BullMQ: expiries, refunds, payouts and callbacks become delayed jobs that outlive the process',
  },
  REDIS_PREFIX: { default: 'escrow', meaning: 'prefix of every Redis key of this deployment' },
  CALLBACK_RETRY_SCHEDULE_MS: {
    default: '5000,60000,300000,1800000,7200000,18000000,36000000,36000000,86400000',
    meaning: 'waits between callback attempts (about three days in all by default); after the last, the delivery is abandoned',
  },
  CALLBACK_TIMEOUT_MS: { default: '10000', meaning: "how long a merchant's server has to answer" },
  HTTP_HEADERS_TIMEOUT_MS: { default: '10000', meaning: "how long a client may take to send a request's head; past it: 408 and the connection is closed" },
  HTTP_REQUEST_TIMEOUT_MS: {
    default: '30000',
    meaning:
      'how long a client may take to send a whole request (head and body); past it: 408, closed. Not how long the answer may take: a request received is never cut while the service waits on it (docs/operations/running.md#timeouts)',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    default: '72000',
    meaning: 'how long an idle keep-alive connection stays open (longer than the 60 s idle timeout of common load balancers)',
  },
  CALLBACK_ALLOW_PRIVATE_URLS: {
    defaultText: '`true` in the embedded quick start, `false` whenever `DATABASE_URL` is set',
    meaning: 'let callbacks reach private, loopback and link-local addresses; `false`: a callbackURL (of an order, an escrow, an account, the payout settings) or a webhook endpoint URL naming one is refused when set, and every delivery checks the address it connects to',
  },
  RATE_LIMIT_PER_MINUTE: {
    default: '6000',
    meaning:
      'requests a minute per API key across all routes (a platform acting for an account spends its own key\'s), and per client address for requests without a valid key; fixed windows shared by every API process, in Redis when `REDIS_URL` is set, else in PostgreSQL; per process in the embedded mode (PGlite), where one process serves; `0` turns it off; past it: 429 `RATE_LIMITED` with `Retry-After` (docs/operations/scaling.md)',
  },
  RECONCILE_INTERVAL_MS: {
    default: '60000',
    meaning: 'how often pending callbacks and due payment work are queued again from the read models; expiries within twice this are queued',
  },
  PROVIDER_RECONCILE_AFTER_MS: {
    default: '60000',
    meaning: 'how long a push, refund or payout may go without news before the provider is asked about it (then after doubling waits, at most an hour apart)',
  },
  ROLE: {
    default: 'all',
    meaning: '`all` (REST API, faces, projector, callbacks and scheduled work in one process), `api` (the REST API and the faces), `rest` (the REST API alone), `faces` (the dashboard, audit console, onboarding and checkout pages alone), `worker` (callbacks, expiries, refunds), `projector`',
  },
  DEMO_MERCHANT: { defaultText: '`true` when embedded', meaning: 'create and print a demo merchant on start' },
  READ_YOUR_WRITES_TIMEOUT_MS: {
    default: '5000',
    meaning: "how long a command's response, a read of the projector's views, or the callback dispatcher's look at the webhook endpoints, waits for the projector (see docs/concepts/read-your-writes.md)",
  },
  PAYOUT_HOLD_AFTER_DESTINATION_CHANGE_HOURS: {
    default: '24',
    meaning: "how long an account's payouts wait after its payout destination changes (the first destination is not held): the guard against a taken-over seller login",
  },
  LOG_LEVEL: { default: 'info', meaning: '`silent`, `error`, `warn`, `info`, `debug`' },
  CONSOLE_SESSION_MINUTES: { default: '480', meaning: 'how long a dashboard or audit console sign-in lasts' },
  DISPUTE_MAX_DAYS: { default: '60', meaning: 'a dispute open longer than this is listed as overdue in the audit console' },
  NEGATIVE_BALANCE_ALERT_DAYS: {
    default: '7',
    meaning: "an account's or merchant's balance (payable and fees, money on hold included) below zero for longer than this many days is listed in the audit console (what it owes and since when)",
  },
  COOKIE_SECURE: {
    default: 'auto',
    meaning: '`Secure` flag of console cookies: `true`, `false`, or `auto` (when the request came over https or `PUBLIC_BASE_URL` is https)',
  },
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof DEFINITIONS;

export const SETTINGS: Readonly<Record<SettingName, Setting>> = DEFINITIONS;
