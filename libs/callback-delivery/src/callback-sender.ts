import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { isPrivateAddress } from './address-guard';

export interface SendResult {
  statusCode?: number;
  retryAfter?: string;
  /** The first KiB of the receiver's answer: what a merchant debugging its endpoint wants to see. */
  response?: string;
  error?: string;
  latencyMs: number;
}

const EXCERPT_BYTES = 1024;
/** Read past the excerpt to free the socket, but not without end. */
const MAX_READ_BYTES = 64 * 1024;

class AttemptTimedOut extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * One POST's answer as undici's dispatcher hands it over: the status, Retry-After and the answer's
 * first KiB, the rest read and dropped (the request aborted past 64 KiB). Every callback's attempt
 * goes through here, so it makes no body stream, abort signal or response object per request, as
 * `request()` does (a third of a POST's CPU); the bytes sent are the same. It settles once, with the
 * answer or with the error that ended the attempt, its own deadline (the callback timeout) included.
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private statusCode?: number;
  private retryAfter?: string;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private read = 0;
  private settled = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly settle: (answer: Omit<SendResult, 'latencyMs'>) => void,
  ) {
    this.deadline = setTimeout(() => this.timedOut(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Timed out while it waited for its connection: it is not sent.
    if (this.settled) controller.abort(new AttemptTimedOut());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.statusCode = statusCode;
    const retryAfter = headers['retry-after'];
    this.retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.read += chunk.length;
    if (this.keptBytes < EXCERPT_BYTES) {
      const part = chunk.subarray(0, EXCERPT_BYTES - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    if (this.read > MAX_READ_BYTES) {
      this.answer();
      controller.abort(new Error('answer past 64 KiB'));
    }
  }

  onResponseEnd(): void {
    this.answer();
  }

  /** A receiver that breaks off its answer after its status has answered: what arrived is the excerpt. */
  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.statusCode !== undefined) this.answer();
    else this.fail(error);
  }

  /** Out of time: past its status it answered, as when the answer breaks off; before, the attempt failed. Either way the request is given up. */
  private timedOut(): void {
    const error = new AttemptTimedOut();
    if (this.statusCode === undefined) this.fail(error);
    else this.answer();
    this.controller?.abort(error);
  }

  private answer(): void {
    if (this.settled) return;
    const excerpt = Buffer.concat(this.kept).toString('utf8');
    this.finish({ statusCode: this.statusCode, retryAfter: this.retryAfter, ...(excerpt ? { response: excerpt } : {}) });
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.finish({ error: describe(error) });
  }

  private finish(answer: Omit<SendResult, 'latencyMs'>): void {
    this.settled = true;
    clearTimeout(this.deadline);
    this.settle(answer);
  }
}

export interface CallbackSenderOptions {
  /** Allow callbackURLs on private, loopback or link-local addresses (local development, the sandbox). */
  allowPrivateAddresses: boolean;
  timeoutMs: number;
}

class BlockedAddress extends Error {
  constructor(address: string) {
    super(`callbackURL resolves to a private address (${address}); refused`);
  }
}

/** Where a URL's POST goes, as undici's dispatcher takes it; `blocked` is the private address it names, if it names one. */
interface Target {
  origin: string;
  path: string;
  blocked?: string;
}

/** Past this many URLs what is kept is dropped and parsed again as needed: a bound on memory. */
const KEPT_TARGETS = 10_000;

/**
 * POSTs a signed callback. The address check runs on the address actually connected to (inside the
 * socket's DNS lookup), so a name that resolves to a private address, or changes its answer between a
 * check and the connection, is refused. Redirects are not followed.
 */
export class CallbackSender {
  private readonly agent: Agent;
  /** By URL: a destination's deliveries all go to one, so it is parsed once, not per attempt. */
  private readonly targets = new Map<string, Target>();

  constructor(private readonly options: CallbackSenderOptions) {
    const allowPrivate = options.allowPrivateAddresses;
    this.agent = new Agent({
      connect: {
        timeout: options.timeoutMs,
        lookup: (hostname, lookupOptions, callback) => {
          dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
            if (error) return callback(error, '', 0);
            const list = addresses as unknown as LookupAddress[];
            const refused = list.find((a) => !allowPrivate && isPrivateAddress(a.address));
            if (refused) return callback(new BlockedAddress(refused.address), '', 0);
            if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
            callback(null, list[0].address, list[0].family);
          });
        },
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = this.targetOf(url);
      if (target.blocked !== undefined) throw new BlockedAddress(target.blocked);
      const answer = await new Promise<Omit<SendResult, 'latencyMs'>>((settle) => {
        this.agent.dispatch(
          {
            origin: target.origin,
            path: target.path,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'escrow-ledger-callbacks/1', ...headers },
            body,
          },
          new AnswerHandler(this.options.timeoutMs, settle),
        );
      });
      return { ...answer, latencyMs: elapsed() };
    } catch (error) {
      return { error: describe(error), latencyMs: elapsed() };
    }
  }

  /** A name is checked where it is connected to (the agent's lookup); an address written in the URL, here. */
  private targetOf(url: string): Target {
    let target = this.targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const blocked = isIP(host) && !this.options.allowPrivateAddresses && isPrivateAddress(host);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, ...(blocked ? { blocked: host } : {}) };
      if (this.targets.size >= KEPT_TARGETS) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** In-flight requests get a moment to finish; idle keep-alive sockets are not waited for. */
  async close(): Promise<void> {
    await Promise.race([this.agent.close(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    await this.agent.destroy();
  }
}

function describe(error: unknown): string {
  if (error instanceof BlockedAddress) return error.message;
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return 'timed out';
  }
  if (e.cause instanceof BlockedAddress) return e.cause.message;
  return (e.cause?.code ?? e.code ?? e.message ?? String(error)).toString().slice(0, 200);
}
