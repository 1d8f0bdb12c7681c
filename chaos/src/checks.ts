import { CALLBACK_WORTHY, deliveryIdFor } from '@app/callbacks';
import { ACCOUNTS } from '@app/audit';
import { streamKey } from '@app/domain';
import {
  type Attempt,
  type CapturedText,
  type EscrowSnapshot,
  type IntegritySnapshot,
  type LedgerSnapshot,
  type LoggedEvent,
  type Operation,
  type OperationKind,
  type OutageWindow,
  type PayoutReportSnapshot,
  type AccountBalanceSnapshot,
  outcomeOf,
  type ReadinessSample,
  type ReceivedCallback,
  retriable,
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
  'link-platform': 'PlatformLinked',
  'create-account': 'AccountCreated',
  'create-order': 'OrderCreated',
  'create-escrow': 'EscrowCreated',
  release: 'AllocationReleased',
  refund: 'EscrowRefundRequested',
  'order-refund': 'OrderRefundRequested',
  'auto-release': 'AutoReleaseRescheduled',
  dispute: 'DisputeOpened',
  'resolve-dispute': 'DisputeResolved',
  cancel: 'EscrowCancelled',
  'payout-destination': 'PayoutDestinationSet',
  'payout-settings': 'PayoutSettingsChanged',
  payout: 'PayoutRequested',
  reversal: 'EscrowRefundRequested',
  transfer: 'TransferCreated',
  'transfer-reversal': 'TransferReversed',
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
  if (operation.kind === 'create-account') return `account-${data.accountId}`;
  if (operation.kind === 'payout' && data.payoutId) return `payout-${data.payoutId}`;
  if (operation.kind === 'transfer') return `transfer-${data.transferId}`;
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
      // Once: a registration once per stream, since it writes one MerchantRegistered for each of the owner's two tenants.
      const perStream = new Map<string, number>();
      for (const e of written) perStream.set(e.streamId, (perStream.get(e.streamId) ?? 0) + 1);
      const times = operation.kind === 'register-merchant' ? Math.max(0, ...perStream.values()) : written.length;
      if (times > 1) problems.push(`duplicate: ${label} appended ${type} ${times} times`);
      if (outcome === 'succeeded') {
        const stream = createdStream(operation);
        if (written.length === 0) problems.push(`lost: ${label} answered ${operation.attempts.at(-1)!.status} but no ${type} is in the log`);
        else if (stream && !perStream.has(stream)) problems.push(`lost: ${label} answered for ${stream} but its ${type} is in ${written[0].streamId}`);
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

/**
 * (a') Every request was answered in the end: retried under its Idempotency-Key through the kills and
 * the outage, for longer than the outage lasts, it got a 2xx or a refusal. A key left "in use" by an
 * attempt that died with its API, or a retry that keeps failing once PostgreSQL is back, shows here.
 */
export function checkAnswered(operations: Operation[]): CheckResult {
  const problems: string[] = [];
  let retried = 0;
  for (const operation of operations) {
    const last = operation.attempts.at(-1);
    if (operation.attempts.length > 1) retried += 1;
    if (!last || !retriable(last)) continue;
    const first = operation.attempts[0];
    const span = first.sentAt !== undefined && last.sentAt !== undefined ? ` over ${((last.sentAt + (last.ms ?? 0) - first.sentAt) / 1000).toFixed(1)} s` : '';
    const answers = operation.attempts.map(describeAnswer).join(', ');
    problems.push(`unanswered: ${operation.method} ${operation.path} (${operation.idempotencyKey ?? operation.id}) after ${operation.attempts.length} attempts${span}: ${answers}`);
  }
  return result('answers: every request answered in the end', problems, `${operations.length} requests, ${retried} retried`);
}

/** `none`, `500 GEN_004`, `409 IDEMPOTENCY_KEY_IN_USE (10.0 s)`: what one attempt got, and how long it waited when that was long. */
function describeAnswer(attempt: Attempt): string {
  let code: string | undefined;
  try {
    code = JSON.parse(attempt.responseText ?? '')?.error?.code;
  } catch {
    code = undefined;
  }
  const answer = attempt.status === undefined ? 'none' : [attempt.status, code].filter(Boolean).join(' ');
  return attempt.ms !== undefined && attempt.ms >= 1000 ? `${answer} (${(attempt.ms / 1000).toFixed(1)} s)` : answer;
}

const santim = (etb: number) => Math.round(etb * 100);
const TERMINAL = new Set(['RELEASED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'CANCELLED', 'FAILED', 'EXPIRED']);

/**
 * (b) The trial balance is zero; each paid allocation's amount is what it holds plus what was released,
 * refunded and frozen of it, and the fee it earned is at most its fee and what was released; each
 * escrow's account equals what its allocations hold and disputes freeze, and is zero once it is closed.
 */
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
    const balance = balances.get(ACCOUNTS.escrow(escrow.escrowId)) ?? 0;
    // An allocation never paid (PENDING, or VOID once the escrow closed unpaid) has no money to account for.
    for (const a of escrow.allocations.filter((allocation) => allocation.status !== 'PENDING' && allocation.status !== 'VOID')) {
      const accounted = santim(a.held) + santim(a.released) + santim(a.refunded) + santim(a.frozen ?? 0);
      if (accounted !== santim(a.amount)) problems.push(`escrow ${escrow.escrowId} allocation ${a.merchantId}: amount ${santim(a.amount)} santim, held + released + refunded + frozen ${accounted}`);
      const earned = santim(a.feeEarned ?? 0);
      if (earned > santim(a.fee ?? 0) || earned > santim(a.released)) {
        problems.push(`escrow ${escrow.escrowId} allocation ${a.merchantId}: fee earned ${earned} santim of a fee of ${santim(a.fee ?? 0)} on ${santim(a.released)} released`);
      }
    }
    const held = escrow.allocations.reduce((sum, a) => sum + santim(a.held) + santim(a.frozen ?? 0), 0);
    if (balance !== held) problems.push(`escrow ${escrow.escrowId} (${escrow.status}): account ${balance} santim, held and frozen allocations ${held} santim`);
    if (TERMINAL.has(escrow.status)) {
      terminal += 1;
      if (balance !== 0) problems.push(`escrow ${escrow.escrowId} is ${escrow.status} but its account holds ${balance} santim`);
    }
  }
  return result('ledger: trial balance zero, escrow accounts equal held and frozen allocations, fees within bounds', problems, `${ledger.accounts.length} accounts, ${escrows.length} escrows (${terminal} closed)`);
}

/**
 * (c) Every callback-worthy event of an order or escrow with a callback URL was delivered at least
 * once with a valid signature, and every delivery of a callback carried the bytes of its first.
 */
export function checkCallbacks(events: LoggedEvent[], received: ReceivedCallback[]): CheckResult {
  const problems: string[] = [];
  // An order's or escrow's callback URL is set when it is created; a merchant's payouts' by its settings, the one in force when the payout ended.
  // The settings have a stream of their own beside the payout account's (settings set earlier are in the account's): both name the merchant,
  // whose payouts' outcomes are in their own streams (payout-…) or, from before, in the payout account's.
  const withCallbackUrl = new Set<string>();
  const payoutCallbacks = new Set<string>();
  const expected = new Map<string, LoggedEvent>();
  for (const e of events) {
    if (/Created$/.test(e.type) && e.data.callbackUrl) withCallbackUrl.add(e.streamId);
    if (e.type === 'PayoutSettingsChanged') {
      const merchantId = streamKey(e.streamId);
      if (e.data.settings.callbackUrl) payoutCallbacks.add(merchantId);
      else payoutCallbacks.delete(merchantId);
    }
    const payoutOutcome = (e.type === 'PayoutPaid' || e.type === 'PayoutFailed') && payoutCallbacks.has(e.data.merchantId);
    // A transfer carries the URL its callback goes to (the platform's payout callback URL when it was made).
    if (CALLBACK_WORTHY.has(e.type) && (withCallbackUrl.has(e.streamId) || payoutOutcome || e.data.callbackUrl)) expected.set(deliveryIdFor(e.id), e);
  }
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

const REFUND_REQUESTED = new Set(['OrderRefundRequested', 'EscrowRefundRequested']);
const REFUND_COMPLETED = new Set(['OrderRefundCompleted', 'EscrowRefundCompleted']);
const EXPIRED = new Set(['OrderExpired', 'EscrowExpired']);
/** Events after which an order or escrow no longer waits for a payment. */
const NO_LONGER_PENDING = new Set(['OrderPaid', 'OrderPaymentFailed', 'OrderExpired', 'EscrowFunded', 'EscrowPaymentFailed', 'EscrowExpired', 'EscrowCancelled']);

/**
 * (f) At quiescence nothing is left open, read from the log: every payment attempt of a phone that
 * answers has an outcome (paid, failed, refused) or its order expired; every refund requested was
 * completed; every order or escrow still PENDING expires in the future (`at`: when the log was read).
 */
export function checkOpenWork(events: LoggedEvent[], at: number, answeringPhones: ReadonlySet<string>): CheckResult {
  const problems: string[] = [];
  const byStream = new Map<string, LoggedEvent[]>();
  for (const event of events) {
    if (/^(order|escrow)-/.test(event.streamId)) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
  }
  let attempts = 0;
  let refunds = 0;
  let pending = 0;
  for (const [streamId, history] of byStream) {
    const created = history.find((e) => e.type === 'OrderCreated' || e.type === 'EscrowCreated');
    if (!created) continue;
    const phone = created.data.customer?.phone as string | undefined;
    const expired = history.some((e) => EXPIRED.has(e.type));
    history.forEach((event, i) => {
      if (!PAYMENT_INITIATED.has(event.type)) return;
      attempts += 1;
      if (!answeringPhones.has(phone ?? '') || expired || history.slice(i + 1).some((e) => PAYMENT_OUTCOMES.has(e.type))) return;
      problems.push(`payment: ${event.data.attemptId} of ${streamId} (phone ${phone}, initiated ${event.data.initiatedAt}) has no outcome, and the ${created.type === 'OrderCreated' ? 'order' : 'escrow'} has not expired`);
    });
    for (const requested of history.filter((e) => REFUND_REQUESTED.has(e.type))) {
      refunds += 1;
      const refundId = requested.data.refundId as string;
      if (history.some((e) => REFUND_COMPLETED.has(e.type) && e.data.refundId === refundId)) continue;
      const failures = history.filter((e) => /RefundFailed$/.test(e.type) && e.data.refundId === refundId).length;
      problems.push(`refund: ${refundId} of ${streamId} (${requested.data.reason ?? 'refused payment'}, requested ${requested.data.requestedAt}) was never completed${failures ? ` (${failures} refusals by the provider)` : ''}`);
    }
    if (!history.some((e) => NO_LONGER_PENDING.has(e.type))) {
      pending += 1;
      const expiresAt = created.data.expiresAt as string;
      if (Date.parse(expiresAt) <= at) problems.push(`expiry: ${streamId} is still PENDING ${((at - Date.parse(expiresAt)) / 1000).toFixed(1)} s after its expiresAt ${expiresAt}`);
    }
  }
  return result('open work: no payment, refund or expiry left open', problems, `${attempts} payment attempts, ${refunds} refunds, ${pending} still pending`);
}

/**
 * (g) While PostgreSQL refused connections, every API that answered at all said 503 to `GET
 * /health/ready` (at least once, and never 200), and each answered 200 within `withinMs` after the outage.
 */
export function checkReadiness(samples: ReadinessSample[], apis: string[], outage: OutageWindow | undefined, withinMs = 30_000): CheckResult {
  const name = 'readiness: 503 while PostgreSQL was away, 200 again after';
  if (!outage) return result(name, ['the run had no PostgreSQL outage'], 'no outage');
  const problems: string[] = [];
  const figures: string[] = [];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  for (const api of apis) {
    const own = samples.filter((s) => s.api === api);
    const during = own.filter((s) => s.sentAt >= outage.startedAt && s.answeredAt <= outage.refusedUntil && s.status !== undefined);
    const unavailable = during.filter((s) => s.status === 503).length;
    for (const ready of during.filter((s) => s.status === 200)) {
      problems.push(`${api} answered ready (200) ${seconds(ready.sentAt - outage.startedAt)} into the outage, while PostgreSQL refused connections`);
    }
    if (during.length > 0 && unavailable === 0) problems.push(`${api} answered ${during.length} times during the outage, never 503 (${[...new Set(during.map((s) => s.status))].join(', ')})`);
    const back = own.find((s) => s.status === 200 && s.sentAt >= outage.endedAt && s.answeredAt <= outage.endedAt + withinMs);
    if (!back) {
      const last = own.at(-1);
      problems.push(`${api} did not answer ready (200) within ${seconds(withinMs)} after the outage (last answer: ${last?.status ?? 'none'})`);
    }
    figures.push(`${api.replace(/^https?:\/\//, '')}: ${unavailable}×503 of ${during.length} answers during, ready ${back ? `${seconds(back.answeredAt - outage.endedAt)}` : 'never'} after`);
  }
  if (!samples.some((s) => s.sentAt >= outage.startedAt && s.answeredAt <= outage.refusedUntil && s.status !== undefined)) {
    problems.push('no API answered its readiness probe during the outage');
  }
  return result(name, problems, figures.join('; '));
}

/** The p99 of `values` (nearest rank); undefined for none. */
export function p99(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1];
}

export interface RecoveryOptions {
  baselineMs: number;
  windowMs: number;
  stepMs: number;
  withinMs: number;
  factor: number;
  /** Fewer successful responses than this make no window (a p99 of a handful is noise). */
  minSamples: number;
}

const RECOVERY: RecoveryOptions = { baselineMs: 30_000, windowMs: 5000, stepMs: 1000, withinMs: 30_000, factor: 2, minSamples: 20 };

/**
 * (h) Latency recovers after the outage: the p99 of the clients' successful requests sent in the
 * `baselineMs` before it (from the start of the load, if that is shorter) is the baseline; some
 * `windowMs` window starting within `withinMs` after the outage has a p99 of at most `factor` times
 * it. Only the run's own baseline is compared, never an absolute figure: the machine's load varies.
 */
export function checkRecoveryLatency(operations: Operation[], loadStartedAt: number, outage: OutageWindow | undefined, options: Partial<RecoveryOptions> = {}): CheckResult {
  const o = { ...RECOVERY, ...options };
  const name = `recovery latency: a ${o.windowMs / 1000} s p99 within ${o.withinMs / 1000} s after the outage at most ${o.factor}× the baseline`;
  if (!outage) return result(name, ['the run had no PostgreSQL outage'], 'no outage');
  const answered = operations
    .flatMap((operation) => operation.attempts)
    .filter((a) => a.sentAt !== undefined && a.ms !== undefined && a.status !== undefined && a.status >= 200 && a.status < 300) as (Attempt & { sentAt: number; ms: number })[];
  const baselineFrom = Math.max(loadStartedAt, outage.startedAt - o.baselineMs);
  const before = answered.filter((a) => a.sentAt >= baselineFrom && a.sentAt + a.ms <= outage.startedAt).map((a) => a.ms);
  const baseline = p99(before);
  if (baseline === undefined || before.length < o.minSamples) {
    return result(name, [`only ${before.length} successful requests in the ${((outage.startedAt - baselineFrom) / 1000).toFixed(1)} s before the outage: no baseline`], 'no baseline');
  }
  const limit = Math.max(1, baseline) * o.factor;
  const windows: { from: number; p99: number; count: number }[] = [];
  for (let from = outage.endedAt; from + o.windowMs <= outage.endedAt + o.withinMs; from += o.stepMs) {
    const latencies = answered.filter((a) => a.sentAt >= from && a.sentAt < from + o.windowMs).map((a) => a.ms);
    if (latencies.length >= o.minSamples) windows.push({ from, p99: p99(latencies)!, count: latencies.length });
  }
  const recovered = windows.find((w) => w.p99 <= limit);
  const best = [...windows].sort((a, b) => a.p99 - b.p99)[0];
  const at = (w: { from: number }) => `+${((w.from - outage.endedAt) / 1000).toFixed(0)}–${((w.from + o.windowMs - outage.endedAt) / 1000).toFixed(0)} s`;
  const summary = [
    `baseline p99 ${baseline} ms over ${before.length} requests`,
    recovered ? `first window at or under ${limit} ms: ${at(recovered)} after, p99 ${recovered.p99} ms over ${recovered.count}` : `${windows.length} windows of ${o.minSamples}+ requests after`,
    best && best !== recovered ? `best ${at(best)}: p99 ${best.p99} ms` : '',
  ].filter(Boolean);
  const problems = recovered
    ? []
    : [
        windows.length === 0
          ? `no ${o.windowMs / 1000} s window within ${o.withinMs / 1000} s after the outage had ${o.minSamples} successful requests`
          : `no ${o.windowMs / 1000} s window within ${o.withinMs / 1000} s after the outage had a p99 at or under ${limit} ms (${o.factor}× the baseline ${baseline} ms); the best, ${at(best)}, had ${best.p99} ms`,
      ];
  return result(name, problems, summary.join('; '));
}

/**
 * (i) Payouts: each ends (paid or failed) by quiescence, once; its reconciliation report (read from the
 * ledger) pays exactly it, line by line; and no money is paid out twice. A payout of its own stream settles a
 * range of its merchant's payable (after, through]: a merchant's ranges follow one another without
 * overlapping, each starting where the one before ended. One of a payout account stream
 * (payouts-{merchantId}) lists its movements: they sum to it, its report has a line for each, and no
 * movement is in two of them that did not fail.
 */
export function checkPayouts(events: LoggedEvent[], reports: PayoutReportSnapshot[]): CheckResult {
  const problems: string[] = [];
  const reportOf = new Map(reports.map((r) => [r.payoutId, r]));
  const requested = events.filter((e) => e.type === 'PayoutRequested');
  const outcomes = new Map<string, string[]>();
  for (const e of events) {
    if (e.type === 'PayoutPaid' || e.type === 'PayoutFailed') outcomes.set(e.data.payoutId, [...(outcomes.get(e.data.payoutId) ?? []), e.type]);
  }
  const settledBy = new Map<string, string>();
  /** Each merchant's last range end, in the order its payouts were requested (the log's). */
  const rangeEnd = new Map<string, { payoutId: string; through: string }>();
  let paid = 0;
  for (const payout of requested) {
    const { payoutId, merchantId, amount, settles, after, through } = payout.data as { payoutId: string; merchantId: string; amount: number; settles?: { eventId: string; amount: number }[]; after?: string | null; through?: string };
    const ends = outcomes.get(payoutId) ?? [];
    if (ends.length !== 1) problems.push(`payout ${payoutId} of ${payout.streamId} ended ${ends.length} times (${ends.join(', ') || 'never'})`);
    const report = reportOf.get(payoutId);
    const reported = report?.linesPaid.reduce((total, line) => total + santim(line), 0);
    if (settles === undefined) {
      const previous = rangeEnd.get(merchantId);
      if (previous && after !== previous.through) problems.push(`payout ${payoutId} settles from ${String(after)}, but ${previous.payoutId} before it settled up to ${previous.through}`);
      if (previous && through !== undefined && comparePositionText(through, previous.through) <= 0) problems.push(`payout ${payoutId} settles up to ${through}, not after ${previous.payoutId}'s ${previous.through}`);
      if (through !== undefined) rangeEnd.set(merchantId, { payoutId, through });
      if (!report) problems.push(`payout ${payoutId} has no report`);
      else if (santim(report.amount) !== amount || reported !== amount) problems.push(`payout ${payoutId} of ${amount} santim: its report says ${santim(report.amount)}, its lines paying ${reported}`);
      if (ends[0] === 'PayoutPaid') paid += 1;
      continue;
    }
    const sum = settles.reduce((total, m) => total + m.amount, 0);
    if (sum !== amount) problems.push(`payout ${payoutId} is ${amount} santim but its movements sum to ${sum}`);
    if (!report) problems.push(`payout ${payoutId} has no report`);
    else if (santim(report.amount) !== amount || reported !== amount || report.linesPaid.length !== settles.length) {
      problems.push(`payout ${payoutId} of ${amount} santim: its report says ${santim(report.amount)}, with ${report.linesPaid.length} lines of ${settles.length} paying ${reported}`);
    }
    if (ends[0] === 'PayoutFailed') continue;
    if (ends[0] === 'PayoutPaid') paid += 1;
    for (const m of settles) {
      const other = settledBy.get(m.eventId);
      if (other) problems.push(`movement ${m.eventId} is in payouts ${other} and ${payoutId}`);
      settledBy.set(m.eventId, payoutId);
    }
  }
  const scheduled = requested.filter((e) => e.data.trigger === 'schedule').length;
  return result('payouts: each ended once, its report lines pay it, ranges of a merchant disjoint, never pays a movement twice', problems, `${requested.length} payouts (${scheduled} scheduled), ${paid} paid, ${reports.length} reports`);
}

/** Log positions as `commit-prepare` (the payouts' range ends), in log order. */
function comparePositionText(a: string, b: string): number {
  const [ac, ap] = a.split('-').map(BigInt);
  const [bc, bp] = b.split('-').map(BigInt);
  return ac !== bc ? (ac < bc ? -1 : 1) : ap === bp ? 0 : ap < bp ? -1 : 1;
}

/**
 * (j) Settlement adds up for every merchant and account: what it was credited (allocations released to
 * it net of fees, the fees it earned as a creator, its orders paid), less what was taken back (its
 * orders refunded at its request, returns after release, the fee it gave back with them), plus and
 * minus its transfers, is still in its payable and fees accounts, on its way in a payout, or paid out.
 * The money is re-derived from the domain events and the payouts from their own events, then compared
 * with the ledger's accounts: a payout, a fee, a reversal or a transfer posted wrongly fails here even
 * when the trial balance is zero.
 */
export function checkSettlement(events: LoggedEvent[], ledger: LedgerSnapshot): CheckResult {
  const problems: string[] = [];
  const creators = new Map<string, { merchantId: string; fee: number }>();
  const owed = new Map<string, { credited: number; requested: number; paid: number; failed: number }>();
  const of = (merchantId: string) => {
    const found = owed.get(merchantId) ?? { credited: 0, requested: 0, paid: 0, failed: 0 };
    owed.set(merchantId, found);
    return found;
  };
  for (const e of events) {
    if (e.type === 'OrderCreated' || e.type === 'EscrowCreated') creators.set(e.streamId, { merchantId: e.data.merchantId, fee: e.data.fee ?? 0 });
    const creator = creators.get(e.streamId);
    if (e.type === 'AllocationReleased') {
      of(e.data.merchantId).credited += e.data.amount - (e.data.fee ?? 0);
      if (creator) of(creator.merchantId).credited += e.data.fee ?? 0;
    }
    if (e.type === 'OrderPaid' && creator) of(creator.merchantId).credited += e.data.amount;
    if (e.type === 'OrderRefundRequested' && creator && e.data.reason === 'REQUESTED') of(creator.merchantId).credited -= e.data.amount;
    if (e.type === 'EscrowRefundRequested' && e.data.reason === 'REVERSED') {
      of(e.data.merchantIds[0]).credited -= e.data.amount - (e.data.feeReturned ?? 0);
      if (creator) of(creator.merchantId).credited -= e.data.feeReturned ?? 0;
    }
    if (e.type === 'TransferCreated' || e.type === 'TransferReversed') {
      const [from, to] = e.type === 'TransferCreated' ? [e.data.source, e.data.destination] : [e.data.destination, e.data.source];
      of(from).credited -= e.data.amount;
      of(to).credited += e.data.amount;
    }
    if (e.type === 'PayoutRequested') of(e.data.merchantId).requested += e.data.amount;
    if (e.type === 'PayoutPaid') of(e.data.merchantId).paid += e.data.amount;
    if (e.type === 'PayoutFailed') of(e.data.merchantId).failed += e.data.amount;
  }
  const balances = new Map(ledger.accounts.map((a) => [a.account, santim(a.balance)]));
  let inTransit = 0;
  let paidOut = 0;
  for (const [merchantId, m] of owed) {
    const held = (balances.get(ACCOUNTS.merchantPayable(merchantId)) ?? 0) + (balances.get(ACCOUNTS.merchantFees(merchantId)) ?? 0);
    const transit = m.requested - m.paid - m.failed;
    inTransit += transit;
    paidOut += m.paid;
    if (held + transit + m.paid !== m.credited) {
      problems.push(`merchant ${merchantId}: credited ${m.credited} santim, but payable and fees ${held} + in transit ${transit} + paid out ${m.paid} = ${held + transit + m.paid}`);
    }
  }
  const transitAccounts = ledger.modes.map((mode) => ACCOUNTS.payoutsInTransit(mode));
  const ledgerTransit = transitAccounts.reduce((sum, account) => sum + (balances.get(account) ?? 0), 0);
  if (ledgerTransit !== inTransit) problems.push(`${transitAccounts.join(' + ')} holds ${ledgerTransit} santim, the payouts on their way ${inTransit}`);
  return result('settlement: payable + fees + in transit + paid out = credited less taken back, per merchant and account', problems, `${owed.size} merchants and accounts, ${paidOut} santim paid out, ${inTransit} in transit`);
}

/**
 * (k) Sellers: no payout was requested for an account that was not verified at that point of the log
 * (its verification and any restriction are events of its own stream, before or after the payout's);
 * every account's balance, as its platform reads it, is its ledger account's: what is available plus
 * what its holding period keeps.
 */
export function checkAccounts(events: LoggedEvent[], ledger: LedgerSnapshot, balances: AccountBalanceSnapshot[]): CheckResult {
  const problems: string[] = [];
  const status = new Map<string, string>();
  let payouts = 0;
  for (const e of events) {
    if (e.type === 'AccountCreated') status.set(e.data.accountId, 'PENDING_VERIFICATION');
    if (e.type === 'AccountVerified') status.set(e.data.accountId, 'VERIFIED');
    if (e.type === 'AccountRejected') status.set(e.data.accountId, 'REJECTED');
    if (e.type === 'AccountRestricted') status.set(e.data.accountId, 'RESTRICTED');
    if (e.type === 'PayoutRequested' && status.has(e.data.merchantId)) {
      payouts += 1;
      if (status.get(e.data.merchantId) !== 'VERIFIED') problems.push(`payout ${e.data.payoutId} was requested for ${e.data.merchantId} while it was ${status.get(e.data.merchantId)}`);
    }
  }
  const ledgerBalance = new Map(ledger.accounts.map((a) => [a.account, santim(a.balance)]));
  let onHold = 0;
  for (const { accountId, available, onHold: held } of balances) {
    const payable = ledgerBalance.get(ACCOUNTS.merchantPayable(accountId)) ?? 0;
    onHold += santim(held);
    if (santim(available) + santim(held) !== payable) problems.push(`account ${accountId}: its balance says ${santim(available)} santim available and ${santim(held)} on hold, its ledger account holds ${payable}`);
  }
  return result(
    'accounts: paid out only while verified, balances (available and on hold) equal to the ledger',
    problems,
    `${status.size} accounts, ${payouts} of their payouts, ${onHold} santim on hold at the end`,
  );
}

/** One change of a payee's payable and fees accounts (santim, signed: a credit is positive), at its place in the log. */
interface Movement {
  position: string;
  payable: number;
  fees: number;
  /** A credit to the payable the holding period keeps: the instant (ms) it becomes available. */
  heldUntil?: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The start (ms) of the Africa/Addis_Ababa day (UTC+3 all year) `days` after the one `at` falls in. */
function addisDayStart(at: number, days: number): number {
  return Math.floor((at + 3 * HOUR_MS) / DAY_MS) * DAY_MS - 3 * HOUR_MS + days * DAY_MS;
}

/**
 * (l) No payout took money its payee did not have available: at the instant it was requested, over the
 * movements up to the ledger position it was decided on (its `through`; a payout without one, at its own
 * place in the log), the payable and the fees less the payable's credits still on hold must be above zero
 * and cover its amount. Everything is re-derived from the domain events, not read from the service's
 * views: each payee's postings as the ledger rules of docs/concepts/ledger.md make them, and each credit's
 * hold as docs/guides/payouts-and-statements.md words it (money credited on an Addis Ababa day is available from the
 * start of the day the holding period in force when it was credited later; a payout's own returns are
 * never held; fees never are).
 */
export function checkPayoutAvailability(events: LoggedEvent[]): CheckResult {
  const problems: string[] = [];
  const creators = new Map<string, { merchantId: string; fee: number }>();
  const delays = new Map<string, number>();
  const movements = new Map<string, Movement[]>();
  const payoutFees = new Map<string, number>();
  let held = 0;
  const move = (e: LoggedEvent, merchantId: string, payable: number, fees: number) => {
    const delay = delays.get(merchantId) ?? 0;
    const movement: Movement = { position: e.position, payable, fees };
    if (payable > 0 && delay > 0 && !e.type.startsWith('Payout')) {
      if (e.recordedAt === undefined) problems.push(`${e.type} ${e.id} credits ${merchantId}'s payable under a holding period but tells no time it was recorded`);
      else movement.heldUntil = addisDayStart(Date.parse(e.recordedAt), delay);
    }
    movements.set(merchantId, [...(movements.get(merchantId) ?? []), movement]);
  };
  let checked = 0;
  for (const e of events) {
    if (e.type === 'OrderCreated' || e.type === 'EscrowCreated') creators.set(e.streamId, { merchantId: e.data.merchantId, fee: e.data.fee ?? 0 });
    const creator = creators.get(e.streamId);
    if (e.type === 'PayoutSettingsChanged') delays.set(e.data.merchantId, e.data.settings?.payoutDelayDays ?? 0);
    if (e.type === 'OrderPaid' && creator) move(e, creator.merchantId, e.data.amount - creator.fee, creator.fee);
    if (e.type === 'OrderRefundRequested' && creator && e.data.reason === 'REQUESTED') move(e, creator.merchantId, -(e.data.amount - (e.data.fee ?? 0)), -(e.data.fee ?? 0));
    if (e.type === 'AllocationReleased') {
      move(e, e.data.merchantId, e.data.amount - (e.data.fee ?? 0), 0);
      if (creator && e.data.fee) move(e, creator.merchantId, 0, e.data.fee);
    }
    if (e.type === 'EscrowRefundRequested' && e.data.reason === 'REVERSED') {
      move(e, e.data.merchantIds[0], -(e.data.amount - (e.data.feeReturned ?? 0)), 0);
      if (creator && e.data.feeReturned) move(e, creator.merchantId, 0, -e.data.feeReturned);
    }
    if (e.type === 'TransferCreated' || e.type === 'TransferReversed') {
      const [from, to] = e.type === 'TransferCreated' ? [e.data.source, e.data.destination] : [e.data.destination, e.data.source];
      move(e, from, -e.data.amount, 0);
      move(e, to, e.data.amount, 0);
    }
    if (e.type === 'PayoutFailed') {
      const fees = e.data.fees ?? payoutFees.get(e.data.payoutId) ?? 0;
      move(e, e.data.merchantId, e.data.amount - fees, fees);
    }
    if (e.type !== 'PayoutRequested') continue;
    const { merchantId, payoutId, amount, through, requestedAt } = e.data as { merchantId: string; payoutId: string; amount: number; through?: string; requestedAt: string };
    const fees = (e.data.fees ?? 0) as number;
    checked += 1;
    const upTo = through ?? e.position;
    const at = Date.parse(requestedAt);
    const counted = (movements.get(merchantId) ?? []).filter((m) => comparePositionText(m.position, upTo) <= 0);
    const payable = counted.reduce((sum, m) => sum + m.payable, 0);
    const feesBalance = counted.reduce((sum, m) => sum + m.fees, 0);
    const onHold = counted.reduce((sum, m) => sum + (m.heldUntil !== undefined && m.heldUntil > at ? m.payable : 0), 0);
    const available = payable + feesBalance - onHold;
    if (onHold > 0) held += 1;
    const standing = `payable ${payable} + fees ${feesBalance} − on hold ${onHold} = ${available} santim available at ${requestedAt} through ${upTo}`;
    if (available <= 0) problems.push(`payout ${payoutId} of ${merchantId} (${amount} santim) was requested with nothing available: ${standing}`);
    else if (amount > available) problems.push(`payout ${payoutId} of ${merchantId} took ${amount} santim, more than was available: ${standing}`);
    payoutFees.set(payoutId, fees);
    move(e, merchantId, -(amount - fees), -fees);
  }
  const holding = [...delays.values()].filter((days) => days > 0).length;
  return result(
    'availability: no payout while its payee had nothing available, none beyond what was available',
    problems,
    `${checked} payouts, ${held} of them while money was on hold; ${holding} payees with a holding period`,
  );
}

/**
 * (m) Nothing was taken back twice: no allocation had more reversed than it released, nor more of its fee
 * given back than it earned; no transfer had more reversed than it moved; no refund or reversal id was
 * requested twice (two appends deciding on the same state would repeat the next one).
 */
export function checkReversals(events: LoggedEvent[]): CheckResult {
  const problems: string[] = [];
  const released = new Map<string, { amount: number; fee: number; reversed: number; feeReturned: number }>();
  const transfers = new Map<string, { amount: number; reversed: number }>();
  const ids = new Set<string>();
  let reversals = 0;
  const once = (id: string, what: string) => {
    if (ids.has(id)) problems.push(`${what} ${id} was requested twice`);
    ids.add(id);
  };
  for (const e of events) {
    const allocation = (merchantId: string) => {
      const key = `${e.streamId} ${merchantId}`;
      const found = released.get(key) ?? { amount: 0, fee: 0, reversed: 0, feeReturned: 0 };
      released.set(key, found);
      return { key, found };
    };
    if (e.type === 'AllocationReleased') {
      const { found } = allocation(e.data.merchantId);
      found.amount += e.data.amount;
      found.fee += e.data.fee ?? 0;
    }
    if (e.type === 'OrderRefundRequested' || e.type === 'EscrowRefundRequested') once(e.data.refundId, 'refund');
    if (e.type === 'EscrowRefundRequested' && e.data.reason === 'REVERSED') {
      reversals += 1;
      const { key, found } = allocation(e.data.merchantIds[0]);
      found.reversed += e.data.amount;
      found.feeReturned += e.data.feeReturned ?? 0;
      if (found.reversed > found.amount) problems.push(`${key}: ${found.reversed} santim reversed of ${found.amount} released`);
      if (found.feeReturned > found.fee) problems.push(`${key}: ${found.feeReturned} santim of fees given back of ${found.fee} earned`);
    }
    if (e.type === 'TransferCreated') transfers.set(e.data.transferId, { amount: e.data.amount, reversed: 0 });
    if (e.type === 'TransferReversed') {
      reversals += 1;
      once(e.data.reversalId, 'transfer reversal');
      const transfer = transfers.get(e.data.transferId) ?? { amount: 0, reversed: 0 };
      transfers.set(e.data.transferId, transfer);
      transfer.reversed += e.data.amount;
      if (transfer.reversed > transfer.amount) problems.push(`transfer ${e.data.transferId}: ${transfer.reversed} santim reversed of ${transfer.amount} moved`);
    }
  }
  return result(
    'reversals: none beyond what an allocation released or a transfer moved, no refund or reversal twice',
    problems,
    `${reversals} reversals, ${ids.size} refunds and reversals`,
  );
}

/**
 * A worker's run of payment work (libs/payments/src/work/payment-work.reactor.ts): `{kind} of {id}
 * ({reference}), run {step}`, then `done` (at debug) or `failed, will retry: {message}`.
 */
const WORK_RUN = /^(\S+ of \S+(?: \([^)]*\))?), run (\S+) (done|failed, will retry: (.*))$/s;
/** A command refused because its stream kept changing (libs/infrastructure/src/command-runner.ts). */
const CONCURRENT_MODIFICATION = /CONCURRENT_MODIFICATION|kept changing while this request was applied/;

/**
 * (n) No payment work was left failing on a concurrent modification: every run that failed with one
 * (a scheduled payout whose books moved under it, say) was followed, in any worker's log, by a run of the
 * same work (kind, id and reference, whatever the step: a Redis lost with its retries has the reconcile
 * pass queue the work again) that succeeded. The worker retries every failed run (a new step, waiting
 * longer each time) and never gives up, so a failure with no success after it is work that kept failing
 * until the run ended.
 */
export function checkWorkRetries(workerLogs: CapturedText[]): CheckResult {
  const runs: { work: string; step: string; at: number; failure?: string; log: string }[] = [];
  for (const log of workerLogs) {
    for (const line of log.text.split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: { time?: number; msg?: unknown };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const match = typeof entry.msg === 'string' ? WORK_RUN.exec(entry.msg) : null;
      if (!match || entry.time === undefined) continue;
      runs.push({ work: match[1], step: match[2], at: entry.time, ...(match[4] !== undefined ? { failure: match[4] } : {}), log: log.name });
    }
  }
  const problems: string[] = [];
  const conflicts = runs.filter((run) => run.failure !== undefined && CONCURRENT_MODIFICATION.test(run.failure));
  const unretried = conflicts.filter((failed) => !runs.some((run) => run.work === failed.work && run.failure === undefined && run.at >= failed.at));
  const byWork = new Map<string, typeof unretried>();
  for (const failed of unretried) byWork.set(failed.work, [...(byWork.get(failed.work) ?? []), failed]);
  for (const [work, failures] of byWork) {
    const last = failures.at(-1)!;
    problems.push(`${work} failed ${failures.length} times on a concurrent modification and never succeeded after (last: run ${last.step} in ${last.log} at ${new Date(last.at).toISOString()}: ${last.failure})`);
  }
  const succeeded = runs.filter((run) => run.failure === undefined).length;
  return result(
    'work retries: no payment work left failing on a concurrent modification',
    problems,
    `${runs.length} runs of payment work logged (${succeeded} done), ${conflicts.length} failed on a concurrent modification`,
  );
}
