/**
 * An operation's example in the OpenAPI document: what a client sends and what a success answers,
 * keyed by `METHOD /path` as the document names the operation. Each area's examples live in a file
 * of their own, a feature's in its folder of libs/features (accounts, escrows, payouts, …), the rest with
 * the REST edge's OpenAPI document, which gathers them all; a new route's example is one entry in its
 * area's file, and test/e2e/openapi-contract.spec.ts fails while an operation has none.
 */
export interface OperationExample {
  /** The JSON body sent, on an operation that takes one. */
  request?: Record<string, unknown>;
  /** `data` of the success envelope `{status, timestamp, message, data}` (libs/http/src/envelope.ts). */
  data?: unknown;
  /** The whole success answer, for one outside the envelope (a CSV file, the health report). */
  response?: unknown;
}

export type OperationExamples = Record<`${'GET' | 'POST' | 'DELETE'} /${string}`, OperationExample>;
