import { CALLBACK_WORTHY, deliveryIdFor } from '@app/callbacks';
import {
  type CapturedText,
  type EscrowSnapshot,
  type IntegritySnapshot,
  type LedgerSnapshot,
  type LoggedEvent,
  type Operation,
  type OperationKind,
  outcomeOf,
  type ReceivedCallback,
  type Secret,
} from './records';

export interface CheckResult {
  name: string;
  ok: boolean;
  summary: string;
  problems: string[];
}

function result(name: string, problems: string[], summary: string): CheckResult {
  return { name, ok: problems.length === 0, summary, problems };
}

/** The event each successful write must have appended, with the request's id as correlation id. */
const WRITTEN: Partial<Record<OperationKind, string>> = {
  'register-merchant': 'MerchantRegistered',
  'register-auditor': 'AuditorRegistered',
  'create-order': 'OrderCreated',
  'create-escrow': 'EscrowCreated',
  release: 'AllocationReleased',
  cancel: 'EscrowCancelled',
};

/** The stream a create wrote to, read from its response. */
function createdStream(operation: Operation): string | undefined {
  const answered = [...operation.attempts].reverse().find((a) => a.status !== undefined && a.status < 300 && a.responseText);
  if (!answered) return undefined;
  const data = JSON.parse(answered.responseText!).data ?? {};
  if (operation.kind === 'create-order') return `order-${data.order_id}`;
  if (operation.kind === 'create-escrow') return `escrow-${data.escrowId}`;
  if (operation.kind === 'register-merchant') return `merchant-${data.merchantId}`;
  if (operation.kind === 'register-auditor') return `auditor-${data.auditorId}`;
  return operation.streamId;
}

const PAYMENT_INITIATED = new Set(['OrderPaymentInitiated', 'EscrowPaymentInitiated']);
const PAYMENT_OUTCOMES = new Set(['OrderPaid', 'OrderPaymentFailed', 'OrderPaymentRefused', 'EscrowFunded', 'EscrowPaymentFailed', 'EscrowPaymentRefused']);
/** The service's own follow-up work: the checkout, the scheduler, refunds, callbacks and the provider's notifications. */
const FOLLOW_UP_ACTORS = new Set(['system', 'provider']);

/**
 * (a) No lost and no phantom writes. Every write that got a 2xx has its event, once; a write whose
 * outcome is unknown has it at most once; every event belongs to a write that succeeded (or may
 * have) or to the service's own follow-up work; reads and refused writes append nothing.
 */
export function checkWrites(operations: Operation[], events: LoggedEvent[]): CheckResult {
  const problems: string[] = [];
  const byRequest = new Map<string, Operation>();
  for (const operation of operations) for (const attempt of operation.attempts) byRequest.set(attempt.requestId, operation);

  for (const event of events) {
    const operation = event.metadata.correlationId ? byRequest.get(event.metadata.correlationId) : undefined;
    if (operation) {
      if (operation.kind === 'read') problems.push(`phantom: ${event.type} ${event.id} was appended by a read (${operation.method} ${operation.path})`);
      else if (outcomeOf(operation) === 'refused') problems.push(`phantom: ${event.type} ${event.id} was appended by a refused request (${operation.method} ${operation.path})`);
    } else if (!FOLLOW_UP_ACTORS.has(event.metadata.actor?.type ?? '')) {
      problems.push(`phantom: ${event.type} ${event.id} in ${event.streamId} belongs to no request this run made`);
    }
  }

  const eventsByCorrelation = new Map<string, LoggedEvent[]>();
  for (const event of events) {
    const id = event.metadata.correlationId;
    if (id) eventsByCorrelation.set(id, [...(eventsByCorrelation.get(id) ?? []), event]);
  }
  const eventsByStream = new Map<string, LoggedEvent[]>();
  for (const event of events) eventsByStream.set(event.streamId, [...(eventsByStream.get(event.streamId) ?? []), event]);

  let succeeded = 0;
  let unknown = 0;
  for (const operation of operations) {
    const outcome = outcomeOf(operation);
    if (operation.kind === 'read' || outcome === 'refused') continue;
    if (outcome === 'succeeded') succeeded += 1;
    else unknown += 1;
    const label = `${operation.method} ${operation.path} (${operation.idempotencyKey ?? operation.id})`;
    const type = WRITTEN[operation.kind];
    if (type) {
      const written = operation.attempts
        .flatMap((a) => eventsByCorrelation.get(a.requestId) ?? [])
        .filter((e) => e.type === type && (operation.kind !== 'release' || e.data.merchantId === operation.allocationMerchantId));
      if (written.length > 1) problems.push(`duplicate: ${label} appended ${type} ${written.length} times`);
      if (outcome === 'succeeded') {
        const stream = createdStream(operation);
        if (written.length === 0) problems.push(`lost: ${label} answered ${operation.attempts.at(-1)!.status} but no ${type} is in the log`);
        else if (stream && written[0].streamId !== stream) problems.push(`lost: ${label} answered for ${stream} but its ${type} is in ${written[0].streamId}`);
      }
    } else if (outcome === 'succeeded' && operation.kind === 'pay') {
      if (!(eventsByStream.get(operation.streamId!) ?? []).some((e) => PAYMENT_INITIATED.has(e.type))) problems.push(`lost: ${label} answered 200 but ${operation.streamId} has no payment attempt`);
    } else if (outcome === 'succeeded' && operation.kind === 'sandbox-complete') {
      if (!(eventsByStream.get(operation.streamId!) ?? []).some((e) => PAYMENT_OUTCOMES.has(e.type))) problems.push(`lost: ${label} answered 200 but ${operation.streamId} has no payment outcome`);
    }
  }

  // The checkout's payment attempts carry no request id: at most one per pay request that may have succeeded.
  const payRequests = new Map<string, number>();
  for (const operation of operations) {
    if (operation.kind === 'pay' && outcomeOf(operation) !== 'refused') payRequests.set(operation.streamId!, (payRequests.get(operation.streamId!) ?? 0) + 1);
  }
  for (const [streamId, streamEvents] of eventsByStream) {
    const attempts = streamEvents.filter((e) => PAYMENT_INITIATED.has(e.type)).length;
    if (attempts > (payRequests.get(streamId) ?? 0)) problems.push(`phantom: ${streamId} has ${attempts} payment attempts for ${payRequests.get(streamId) ?? 0} pay requests`);
  }
  return result('writes: no lost and no phantom writes', problems, `${succeeded} succeeded and ${unknown} unknown-outcome writes against ${events.length} events`);
}

const santim = (etb: number) => Math.round(etb * 100);
const TERMINAL = new Set(['RELEASED', 'REFUNDED', 'CANCELLED', 'FAILED', 'EXPIRED']);

/** (b) The trial balance is zero; each escrow's account equals its held allocations, and is zero once the escrow is closed. */
export function checkLedger(ledger: LedgerSnapshot, escrows: EscrowSnapshot[]): CheckResult {
  const problems: string[] = [];
  const debits = ledger.accounts.reduce((sum, a) => sum + santim(a.debit), 0);
  const credits = ledger.accounts.reduce((sum, a) => sum + santim(a.credit), 0);
  if (!ledger.balanced || debits !== credits || santim(ledger.totalDebits) !== santim(ledger.totalCredits)) {
    problems.push(`trial balance: debits ${debits} santim, credits ${credits} santim (balanced: ${ledger.balanced})`);
  }
  const balances = new Map(ledger.accounts.map((a) => [a.account, santim(a.balance)]));
  let terminal = 0;
  for (const escrow of escrows) {
    const balance = balances.get(`escrow:${escrow.escrowId}`) ?? 0;
    const held = escrow.allocations.filter((a) => a.status === 'HELD').reduce((sum, a) => sum + santim(a.amount), 0);
    if (balance !== held) problems.push(`escrow ${escrow.escrowId} (${escrow.status}): account ${balance} santim, held allocations ${held} santim`);
    if (TERMINAL.has(escrow.status)) {
      terminal += 1;
      if (balance !== 0) problems.push(`escrow ${escrow.escrowId} is ${escrow.status} but its account holds ${balance} santim`);
    }
  }
  return result('ledger: trial balance zero, escrow accounts equal held allocations', problems, `${ledger.accounts.length} accounts, ${escrows.length} escrows (${terminal} closed)`);
}

/**
 * (c) Every callback-worthy event of an order or escrow with a callback URL was delivered at least
 * once with a valid signature, and every delivery of a callback carried the bytes of its first.
 */
export function checkCallbacks(events: LoggedEvent[], received: ReceivedCallback[]): CheckResult {
  const problems: string[] = [];
  const withCallbackUrl = new Set(events.filter((e) => /Created$/.test(e.type) && e.data.callbackUrl).map((e) => e.streamId));
  const expected = new Map(events.filter((e) => CALLBACK_WORTHY.has(e.type) && withCallbackUrl.has(e.streamId)).map((e) => [deliveryIdFor(e.id), e]));
  const first = new Map<string, string>();
  const delivered = new Set<string>();
  for (const callback of received) {
    if (!callback.signatureValid) {
      problems.push(`bad signature: a callback to ${callback.path} (${callback.deliveryId ?? 'no deliveryId'})`);
      continue;
    }
    const id = callback.deliveryId ?? '';
    if (!expected.has(id)) problems.push(`phantom callback: ${id || callback.body.slice(0, 80)} matches no callback-worthy event`);
    const body = first.get(id);
    if (body === undefined) first.set(id, callback.body);
    else if (body !== callback.body) problems.push(`changed payload: ${id} was delivered as ${body} and later as ${callback.body}`);
    if (callback.answer === 'ok') delivered.add(id);
  }
  for (const [id, event] of expected) {
    if (!delivered.has(id)) problems.push(`undelivered: ${event.type} ${event.id} in ${event.streamId} (delivery ${id})`);
  }
  return result('callbacks: each delivered, signed, with an unchanged payload', problems, `${expected.size} callbacks expected, ${delivered.size} delivered, ${received.length} requests received`);
}

/** (d) The hash chain of every stream verifies. */
export function checkIntegrity(report: IntegritySnapshot): CheckResult {
  const problems = report.ok ? [] : [`broken chain: ${JSON.stringify(report.firstBreak)}`];
  return result('integrity: hash chain verifies', problems, `${report.streamsChecked} streams, ${report.eventsChecked} events`);
}

/**
 * (e) No secret appears anywhere but in the one response that issued it: not in other responses,
 * process logs, the event log or callback bodies.
 */
export function checkSecrets(secrets: Secret[], responses: (CapturedText & { operationId: string })[], others: CapturedText[]): CheckResult {
  const problems: string[] = [];
  for (const secret of secrets) {
    for (const response of responses) {
      if (response.operationId !== secret.issuedBy && response.text.includes(secret.value)) problems.push(`${secret.name} in the response to ${response.name}`);
    }
    for (const text of others) if (text.text.includes(secret.value)) problems.push(`${secret.name} in ${text.name}`);
  }
  const scanned = responses.length + others.length;
  return result('secrets: never in responses, logs or the event log', problems, `${secrets.length} secrets searched in ${scanned} texts`);
}
