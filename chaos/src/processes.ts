import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The repository root, from the sources (chaos/src) or the build (dist/chaos/src). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nest-cli.json'))) {
    if (dirname(dir) === dir) throw new Error('the chaos run must live inside the repository');
    dir = dirname(dir);
  }
  return dir;
})();

/** A port nothing listens on right now, for a service process to take. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

/**
 * `count` ports free now, all different: they are held open together while they are chosen (one
 * after the other, the system may hand the same port out twice, and two APIs would race for it).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * One service process that the run may kill and start again. Every incarnation writes its stdout
 * and stderr to the same file, which the secrets check reads at the end.
 */
export class ManagedProcess {
  private child?: ChildProcess;
  private exit?: Promise<void>;
  private readonly log: WriteStream;
  private exitExpected = false;
  /** Where this incarnation's output starts in the log file. */
  private outputFrom = 0;
  starts = 0;
  /** Exits the run did not cause: a crash. */
  unexpectedExits = 0;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
    readonly logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  start(): void {
    this.starts += 1;
    this.outputFrom = existsSync(this.logFile) ? statSync(this.logFile).size : 0;
    const child = spawn(this.command, this.args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    this.child = child;
    this.exitExpected = false;
    this.exit = new Promise((resolve) =>
      child.once('exit', () => {
        if (!this.exitExpected) this.unexpectedExits += 1;
        resolve();
      }),
    );
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  /** Whether the process started last has printed `line` (e.g. that it is ready). */
  printedSinceStart(line: string): boolean {
    if (!this.running || !existsSync(this.logFile)) return false;
    // Only this incarnation's output: an API's log grows by megabytes over a run, and this is asked often.
    const fd = openSync(this.logFile, 'r');
    try {
      const length = fstatSync(fd).size - this.outputFrom;
      if (length <= 0) return false;
      const output = Buffer.alloc(length);
      readSync(fd, output, 0, length, this.outputFrom);
      return output.includes(line);
    } finally {
      closeSync(fd);
    }
  }

  /** `kill -9`: no shutdown hooks, in-flight work is cut off wherever it was. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.exitExpected = true;
    this.child!.kill('SIGKILL');
    await this.exit;
  }

  /** SIGTERM, then SIGKILL if it has not exited within the grace period. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.exitExpected = true;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise((resolve) => this.log.end(resolve));
  }
}

export type ServiceRole = 'api' | 'worker' | 'projector';

/** What each role prints once it has finished starting: an API once it listens, the others once their work has begun. */
const READY_LINE: Record<ServiceRole, string> = { api: 'Escrow ledger is listening on', worker: 'worker ready', projector: 'worker ready' };

/** A process of the built service, with the role the round-robin kills report it under. */
export class ServiceProcess extends ManagedProcess {
  /** The incarnation (`starts`) last seen ready: once it has printed its line, its output need not be read again. */
  private readyIncarnation = 0;

  constructor(
    name: string,
    readonly role: ServiceRole,
    env: Record<string, string>,
    logFile: string,
    /** An API's base URL, where clients send requests. */
    readonly url?: string,
  ) {
    super(name, process.execPath, [join(ROOT, 'dist', 'apps', role === 'api' ? 'api' : 'worker', 'src', 'main.js')], env, logFile);
  }

  /** Whether the incarnation started last has finished starting. */
  get ready(): boolean {
    if (this.readyIncarnation !== this.starts && this.printedSinceStart(READY_LINE[this.role])) this.readyIncarnation = this.starts;
    return this.readyIncarnation === this.starts && this.running;
  }
}

export async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await Promise.resolve(check()).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
