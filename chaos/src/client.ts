import { randomUUID } from 'node:crypto';
import type { Attempt, Operation, OperationKind } from './records';

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
const ATTEMPTS = 6;

/** Worth another attempt with the same Idempotency-Key: no answer, a 5xx, or the first attempt still running. */
function retriable(attempt: Attempt): boolean {
  if (attempt.status === undefined || attempt.status >= 500 || attempt.status === 429) return true;
  return attempt.status === 409 && safeJson(attempt.responseText ?? '')?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

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

  constructor(
    private readonly runId: string,
    private readonly apis: string[],
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
      attempts: [],
    };
    this.operations.push(operation);
    for (let n = 0; n < ATTEMPTS; n++) {
      const attempt = await this.attempt(operation, request, `${id}.${n}`, this.apis[(this.sequence + n) % this.apis.length]);
      operation.attempts.push(attempt);
      if (!retriable(attempt)) break;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** n + Math.random() * 100));
    }
    const last = operation.attempts[operation.attempts.length - 1];
    return { status: last.status, body: last.responseText ? safeJson(last.responseText) : undefined };
  }

  private async attempt(operation: Operation, request: Send, requestId: string, api: string): Promise<Attempt> {
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
      return { requestId, status: response.status, responseText, replayed: response.headers.get('idempotent-replayed') === 'true' };
    } catch (error) {
      return { requestId, error: error instanceof Error ? `${error.name}: ${(error.cause as Error | undefined)?.message ?? error.message}` : String(error) };
    }
  }
}

/** A fresh id for things the client names itself (escrow order ids). */
export function clientId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 13)}`;
}
