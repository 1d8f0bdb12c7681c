import type { Mode } from '@app/domain';

/**
 * Every object a merchant key reads says its mode (docs/concepts/modes.md). A key reaches its own
 * tenant's objects only (another tenant's, the other mode's included, are 404), so an answer's mode is
 * the key's: the answer's `data` carries `livemode`, and so does each item of a page (a `data` with
 * `hasMore`), as each would alone. The parts of one object (an escrow's allocations, a report's lines)
 * are of their object's mode and do not repeat it. The document says the same of the same places
 * (describeLivemode in openapi/document.ts).
 */
export function withLivemode(data: unknown, livemode: boolean): unknown {
  if (Array.isArray(data)) return data.map((item) => marked(item, livemode));
  if (!isObject(data)) return data;
  if (!('hasMore' in data)) return { ...data, livemode };
  const items = Object.fromEntries(Object.entries(data).filter(([, value]) => Array.isArray(value)).map(([key, value]) => [key, (value as unknown[]).map((item) => marked(item, livemode))]));
  return { ...data, ...items, livemode };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const marked = (item: unknown, livemode: boolean) => (isObject(item) ? { ...item, livemode } : item);

/** Set by MerchantApi (openapi/security.ts): the route's answers say their mode, once its guard has resolved the key's tenant. */
export const ANSWERS_WITH_LIVEMODE = 'escrow-ledger:answers-with-livemode';

/** An answer of the merchant API with `livemode` on its data (IdempotencyInterceptor applies it, before an answer is kept). */
export function answerWithLivemode(body: unknown, mode: Mode | undefined): unknown {
  return mode && isObject(body) && body.status === 'success' && 'data' in body ? { ...body, data: withLivemode(body.data, mode === 'live') } : body;
}
