import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
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

/** The answer's first KiB as text; the rest is read and dropped (or the socket closed past 64 KiB). */
async function excerptOf(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let read = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (keptBytes < EXCERPT_BYTES) {
        const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (read > MAX_READ_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // A receiver that breaks off its answer: what arrived is the excerpt.
  }
  return Buffer.concat(kept).toString('utf8');
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

/**
 * POSTs a signed callback. The address check runs on the address actually connected to (inside the
 * socket's DNS lookup), so a name that resolves to a private address, or changes its answer between a
 * check and the connection, is refused. Redirects are not followed.
 */
export class CallbackSender {
  private readonly agent: Agent;

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
      const target = new URL(url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !this.options.allowPrivateAddresses && isPrivateAddress(host)) throw new BlockedAddress(host);
      const response = await request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'escrow-ledger-callbacks/1', ...headers },
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const excerpt = await excerptOf(response.body);
      const retryAfter = response.headers['retry-after'];
      return {
        statusCode: response.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        ...(excerpt ? { response: excerpt } : {}),
        latencyMs: elapsed(),
      };
    } catch (error) {
      return { error: describe(error), latencyMs: elapsed() };
    }
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
