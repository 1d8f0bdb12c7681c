import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the service's processes and PostgreSQL, so that the run can take the database
 * away from this service alone (other suites share the server). While it refuses, nothing listens on
 * its port: a connection attempt fails with ECONNREFUSED, as against a server that is down.
 */
export class PostgresProxy {
  private server?: Server;
  private readonly connections = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** Listens on a free local port and forwards every connection to `target`. */
  static async start(target: { host: string; port: number }): Promise<PostgresProxy> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const proxy = new PostgresProxy(target, port);
    await proxy.listen();
    return proxy;
  }

  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  get refusing(): boolean {
    return this.server === undefined;
  }

  /** Cuts every connection and stops listening; returns how many client connections it cut. */
  async cut(): Promise<number> {
    const server = this.server;
    this.server = undefined;
    const cut = this.connections.size;
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
    return cut;
  }

  /** Lets connections through again, on the same port. */
  async restore(): Promise<void> {
    if (this.server) return;
    await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => this.forward(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    // Without it, Nagle's algorithm would hold back the small messages of the PostgreSQL protocol.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.connections.add(client);
    const end = () => {
      this.connections.delete(client);
      client.destroy();
      upstream.destroy();
    };
    // Either side's loss ends both, as a server going away would: the service sees its connection end.
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
