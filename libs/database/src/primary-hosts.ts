import { Socket } from 'node:net';
import { Client, type ClientConfig } from 'pg';

export interface HostPort {
  host: string;
  port: number;
}

/** libpq's `target_session_attrs`, as far as a service that writes needs them. */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

export interface HostList {
  hosts: HostPort[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The connection string for one host: the list's user, database and parameters, that host alone. */
  urlFor(host: HostPort): string;
}

const URI = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;

function parseHost(text: string, defaultPort: number): HostPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : defaultPort };
  const [host, port] = text.split(':');
  return { host: host || 'localhost', port: port ? Number(port) : defaultPort };
}

function formatHost({ host, port }: HostPort): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Reads libpq's multi-host URI (`postgresql://user@h1:5432,h2:5433/db?target_session_attrs=read-write`,
 * https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-MULTIPLE-HOSTS), which `pg` does
 * not: it connects to one host and ignores `target_session_attrs`. Keyword/value strings are not
 * read here; they keep `pg`'s one-host meaning.
 */
export function parseHostList(connectionString: string): HostList | undefined {
  const match = URI.exec(connectionString);
  if (!match) return undefined;
  const [, scheme, auth = '', hostsText, rest] = match;
  const [path, query = ''] = rest.split('?', 2);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write' && attrs !== 'primary') {
    throw new Error(`target_session_attrs=${attrs} is not supported: use read-write, primary or any`);
  }
  params.delete('target_session_attrs');
  const defaultPort = Number(params.get('port') ?? 5432);
  params.delete('port');
  const hosts = hostsText.split(',').map((text) => parseHost(decodeURIComponent(text), defaultPort));
  const remaining = params.toString();
  return {
    hosts,
    targetSessionAttrs: attrs,
    urlFor: (host) => `${scheme}${auth}${formatHost(host)}${path}${remaining ? `?${remaining}` : ''}`,
  };
}

/** SQLSTATE 08001: the client could not establish a connection; isConnectionError counts it as one to wait out. */
class NoHostAccepted extends Error {
  readonly code = '08001';
}

const PROBE_TIMEOUT_MS = 5_000;

/**
 * Which host of the list takes this process's sessions: the first, in the list's order, that accepts
 * a connection and, for `read-write`/`primary`, is not read-only (libpq's rule). The answer is kept
 * until a connection to it fails, so a failover costs each process one probe of the list, not one per
 * connection.
 */
export class PrimaryLocator {
  private known?: HostPort;
  private probing?: Promise<HostPort>;

  constructor(
    private readonly list: HostList,
    private readonly config: ClientConfig = {},
  ) {}

  primary(): Promise<HostPort> {
    if (this.known) return Promise.resolve(this.known);
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** A connection to `host` failed or found it read-only: the next connection probes the list again. */
  forget(host?: HostPort): void {
    if (!host || (this.known && this.known.host === host.host && this.known.port === host.port)) this.known = undefined;
  }

  private async probe(): Promise<HostPort> {
    // All hosts at once (a dead one must not hold up the others), chosen in the list's order.
    const answers = await Promise.all(this.list.hosts.map((host) => this.accepts(host).catch((error: unknown) => error as Error)));
    const index = answers.findIndex((answer) => answer === true);
    if (index < 0) {
      const reasons = answers.map((answer, i) => `${formatHost(this.list.hosts[i])}: ${answer === false ? 'read-only' : (answer as Error).message}`);
      throw new NoHostAccepted(`no host accepts ${this.list.targetSessionAttrs} sessions (${reasons.join('; ')})`);
    }
    this.known = this.list.hosts[index];
    return this.known;
  }

  private async accepts(host: HostPort): Promise<boolean> {
    const client = new Client({ ...this.config, connectionString: this.list.urlFor(host), connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if (this.list.targetSessionAttrs === 'any') return true;
      const sql = this.list.targetSessionAttrs === 'primary' ? 'SELECT pg_is_in_recovery() AS standby' : "SELECT current_setting('transaction_read_only') = 'on' AS standby";
      const [row] = (await client.query<{ standby: boolean }>(sql)).rows;
      return !row.standby;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/**
 * A socket that connects to the locator's current primary, whatever host `pg` asks for: every client
 * built from the same config (a pool's, a LISTEN connection, BullMQ's) follows a failover without
 * knowing of it. A socket that fails makes the locator probe again.
 */
class PrimarySocket extends Socket {
  constructor(private readonly locator: PrimaryLocator) {
    super();
  }

  override connect(...args: unknown[]): this {
    // pg connects with (port, host), or a Unix socket path; the list's hosts are TCP.
    void args;
    this.locator.primary().then(
      (target) => {
        if (this.destroyed) return;
        // A refused or reset connection, or one the server ended (a shutdown, a demotion), may mean
        // the primary moved: the next connection asks again.
        const forget = () => this.locator.forget(target);
        this.once('error', forget);
        this.once('end', forget);
        super.connect(target.port, target.host);
      },
      (error: Error) => this.destroy(error),
    );
    return this;
  }
}

export interface PrimaryConnection {
  /** The config every `pg` client and pool of the deployment uses. */
  config: ClientConfig;
  /** Set when the connection string lists hosts to choose from. */
  locator?: PrimaryLocator;
}

/**
 * A `pg` config for `connectionString` with libpq's multi-host semantics: with one host and no
 * `target_session_attrs`, `pg`'s own; otherwise each connection goes to the host the locator chose.
 */
export function primaryConnection(connectionString: string, base: ClientConfig = {}): PrimaryConnection {
  const list = parseHostList(connectionString);
  if (!list || (list.hosts.length === 1 && list.targetSessionAttrs === 'any')) return { config: { ...base, connectionString } };
  const locator = new PrimaryLocator(list, base);
  return {
    locator,
    // user, password, database and parameters from the list; the host is the socket's choice.
    config: { ...base, connectionString: list.urlFor(list.hosts[0]), stream: () => new PrimarySocket(locator) },
  };
}
