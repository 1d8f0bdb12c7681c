import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPrivateAddress } from './address-guard';

export interface SendResult {
  statusCode?: number;
  retryAfter?: string;
  error?: string;
  latencyMs: number;
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
      // The body is read and dropped: only the status matters, and the socket must be freed.
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const retryAfter = response.headers['retry-after'];
      return { statusCode: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, latencyMs: elapsed() };
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
