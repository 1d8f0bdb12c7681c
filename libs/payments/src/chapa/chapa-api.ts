import { request } from 'undici';

/** An answer slower than this counts as none (the operation is then asked about later). */
export const ANSWER_TIMEOUT_MS = 15_000;

/** Chapa's envelope: `{message, status: "success" | "failed", data}` (https://developer.chapa.co/api-reference/error-codes). */
export interface ChapaAnswer<T> {
  statusCode: number;
  status: string;
  /** Chapa's message, flattened to text (a validation failure sends an object of field messages). */
  message: string;
  data: T | undefined;
}

/** Chapa refused the request (4xx): nothing was done, and asking the same again gets the same answer. */
export class ChapaRefusal extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ChapaRefusal';
  }
}

function messageText(message: unknown): string {
  if (typeof message === 'string') return message.slice(0, 200);
  if (message && typeof message === 'object') return JSON.stringify(message).slice(0, 200);
  return 'no message';
}

/**
 * Calls Chapa with the secret key as bearer token. A 4xx is a ChapaRefusal; a 5xx, a timeout or a
 * connection error throws a plain Error: whether Chapa acted is unknown, and the caller asks later.
 * Neither the key nor a request body ever appears in an error.
 */
export class ChapaApi {
  constructor(
    private readonly baseUrl: string,
    private readonly secretKey: string,
  ) {}

  get<T>(path: string): Promise<ChapaAnswer<T>> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body: unknown): Promise<ChapaAnswer<T>> {
    return this.call<T>('POST', path, body);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ChapaAnswer<T>> {
    const response = await request(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.secretKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: ANSWER_TIMEOUT_MS,
      bodyTimeout: ANSWER_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode >= 500) throw new Error(`Chapa answered ${method} ${path.split('?')[0]} with ${response.statusCode}`);
    let parsed: { status?: unknown; message?: unknown; data?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      if (response.statusCode < 400) throw new Error(`Chapa answered ${method} ${path.split('?')[0]} with a body that is not JSON`);
    }
    const answer: ChapaAnswer<T> = {
      statusCode: response.statusCode,
      status: typeof parsed.status === 'string' ? parsed.status : '',
      message: messageText(parsed.message),
      data: (parsed.data ?? undefined) as T | undefined,
    };
    if (response.statusCode >= 400) throw new ChapaRefusal(response.statusCode, answer.message);
    return answer;
  }
}
