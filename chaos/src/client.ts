import { randomUUID } from 'node:crypto';
import { type Attempt, type Operation, type OperationKind, retriable } from './records';

export interface Reply {
  status?: number;
  body?: any;
}

interface Send {
  kind: OperationKind;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  streamId?: string;
  allocationMerchantId?: string;
}

const TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 3000;

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An HTTP client that records every request and response of the run. Each attempt has its own
 * x-request-id (the service makes it the events' correlation id); a write keeps its Idempotency-Key
 * across attempts, which is how a client survives a response lost to a killed connection.
 */
export class RecordingClient {
  readonly operations: Operation[] = [];
  private sequence = 0;
  private readonly inFlightByApi = new Map<string, number>();

  constructor(
    private readonly runId: string,
    private readonly apis: string[],
    /** How long a request is retried before the client gives up: longer than the PostgreSQL outage, so that a retry after it shows what the service made of the key. */
    private readonly retryForMs = 20_000,
  ) {}

  async send(request: Send): Promise<Reply> {
    const id = `${this.runId}-${++this.sequence}`;
    const write = request.method === 'POST';
    const operation: Operation = {
      id,
      kind: request.kind,
      method: request.method,
      path: request.path,
      idempotencyKey: write ? `idem-${id}` : undefined,
      streamId: request.streamId,
      allocationMerchantId: request.allocationMerchantId,
      ...keyMode(request.headers?.['x-api-secret']),
      attempts: [],
    };
    this.operations.push(operation);
    // Each retry goes to the next API: the one that did not answer may be down.
    const first = this.sequence;
    const giveUpAt = Date.now() + this.retryForMs;
    for (let n = 0; ; n++) {
      const attempt = await this.attempt(operation, request, `${id}.${n}`, this.apis[(first + n) % this.apis.length]);
      operation.attempts.push(attempt);
      if (!retriable(attempt) || Date.now() >= giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** n, MAX_BACKOFF_MS) + Math.random() * 100));
    }
    const last = operation.attempts[operation.attempts.length - 1];
    return { status: last.status, body: last.responseText ? safeJson(last.responseText) : undefined };
  }

  /**
   * A write the run made without the API (chaos/src/backdated-settings.ts), recorded as one answered
   * 200 so that the checks hold it to the same rules: its event appended once, under its request id.
   */
  recordDirectWrite(write: { kind: OperationKind; path: string; requestId: string; streamId: string }): void {
    this.operations.push({
      id: `${this.runId}-${++this.sequence}`,
      kind: write.kind,
      method: 'POST',
      path: write.path,
      streamId: write.streamId,
      attempts: [{ requestId: write.requestId, sentAt: Date.now(), ms: 0, status: 200 }],
    });
  }

  /** Requests sent to `api` and not yet answered: what a kill of that API would cut off. */
  inFlight(api: string): number {
    return this.inFlightByApi.get(api) ?? 0;
  }

  private async attempt(operation: Operation, request: Send, requestId: string, api: string): Promise<Attempt> {
    const sentAt = Date.now();
    const timing = () => ({ api, sentAt, ms: Date.now() - sentAt });
    this.inFlightByApi.set(api, this.inFlight(api) + 1);
    try {
      const response = await fetch(`${api}${request.path}`, {
        method: request.method,
        headers: {
          'x-request-id': requestId,
          ...(operation.idempotencyKey ? { 'idempotency-key': operation.idempotencyKey } : {}),
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const responseText = await response.text();
      return { requestId, ...timing(), status: response.status, responseText, replayed: response.headers.get('idempotent-replayed') === 'true' };
    } catch (error) {
      return { requestId, ...timing(), error: error instanceof Error ? `${error.name}: ${(error.cause as Error | undefined)?.message ?? error.message}` : String(error) };
    } finally {
      this.inFlightByApi.set(api, this.inFlight(api) - 1);
    }
  }
}

/** A merchant key says its mode by its prefix (docs/concepts/modes.md). */
function keyMode(apiSecret: string | undefined): Pick<Operation, 'mode'> {
  if (apiSecret?.startsWith('sk_test_')) return { mode: 'test' };
  if (apiSecret?.startsWith('sk_live_')) return { mode: 'live' };
  return {};
}

/** A fresh id for things the client names itself (escrow order ids). */
export function clientId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 13)}`;
}
