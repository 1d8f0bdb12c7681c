import { Client, type ClientConfig } from 'pg';

type Handler = (payload: string) => void;

const RECONNECT_DELAY_MS = 1000;

/**
 * One connection outside the pool that LISTENs for every channel this process follows. A pooled
 * connection cannot listen: it is handed to other work between queries. When the connection is lost
 * it is opened again after a pause, and every channel is listened to anew; what was notified
 * meanwhile is found by the listeners' own polling.
 */
export class PgNotifications {
  private readonly handlers = new Map<string, Set<Handler>>();
  private client?: Client;
  private connecting?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly config: ClientConfig) {}

  async listen(channel: string, handler: Handler): Promise<() => Promise<void>> {
    const existing = this.handlers.get(channel);
    const handlers = existing ?? new Set<Handler>();
    handlers.add(handler);
    if (!existing) {
      this.handlers.set(channel, handlers);
      if (this.client) await this.send(`LISTEN ${channel}`);
    }
    await this.connect();
    return async () => {
      handlers.delete(handler);
      if (handlers.size > 0 || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      await this.send(`UNLISTEN ${channel}`);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client(this.config);
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      // Channels added while this connection was being set up are listened to before it is handed over.
      const listening = new Set<string>();
      for (let missing = [...this.handlers.keys()]; missing.length > 0; missing = [...this.handlers.keys()].filter((c) => !listening.has(c))) {
        for (const channel of missing) {
          await client.query(`LISTEN ${channel}`);
          listening.add(channel);
        }
      }
      if (this.closed) throw new Error('closed while connecting');
      this.client = client;
    } catch {
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
    }
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RECONNECT_DELAY_MS);
    this.retry.unref();
  }

  private async send(sql: string): Promise<void> {
    // A failure here means the connection is going: its loss is handled by lost(), which listens anew.
    await this.client?.query(sql).catch(() => undefined);
  }
}
