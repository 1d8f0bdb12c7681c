export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  retries?: number;
  /** The first backoff's ceiling, doubled at each retry (with full jitter). Default 250 ms. */
  baseDelayMs?: number;
  /** The longest wait between attempts, backoff or Retry-After: a longer Retry-After ends the retries. Default 20 s. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { retries: 3, baseDelayMs: 250, maxDelayMs: 20_000 };

/**
 * Answers worth asking again: rate limited, the service failing or unavailable, and a POST whose
 * Idempotency-Key is still held by an earlier attempt of the same call (docs/concepts/idempotency.md
 * in the service's repository: the retry then gets the first attempt's answer).
 */
async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  const problem = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: unknown } } | undefined;
  return problem?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A fetch that sends one request again on a network error, a 429 or a 5xx, with exponential
 * backoff (full jitter) or the Retry-After the service asked for. Every attempt is a copy of the one
 * request, headers included, so a POST's Idempotency-Key is the same on each: the service applies
 * the call once however many attempts reach it. The last answer is returned (or the last network
 * error thrown) when the retries run out; an aborted signal stops at once.
 */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const policy = { ...DEFAULT_RETRY, ...options };
  const backoff = (retry: number) => Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return async (input, init) => {
    const request = new Request(input, init);
    for (let retry = 0; ; retry += 1) {
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (retry >= policy.retries || request.signal.aborted) throw error;
        await sleep(backoff(retry), request.signal);
        continue;
      }
      if (retry >= policy.retries || !(await isRetryable(response))) return response;
      const asked = retryAfterMs(response.headers);
      if (asked !== undefined && asked > policy.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(asked ?? backoff(retry), request.signal);
    }
  };
}
