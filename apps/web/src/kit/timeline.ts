import { discrepancyCount, type PayoutSchedule, type PayoutSettings, type ProviderStatementReconciled, type Santim } from '@app/domain';
import { type AuditEvent, ranByWords } from '@app/audit';
import { html, SafeHtml } from '@app/http';
import { addisHour, etb, when } from './format';

type Data = Record<string, unknown>;
/** Merchant id → the name the escrow gave it (its allocations' merchantName), shown beside the id. */
export type MerchantNames = Readonly<Record<string, string>>;

/** Who took a verification decision: staff by their key, or the sandbox's rule for test TINs. */
const decidedBy = (data: Data) => {
  const by = data.decidedBy as { type: string; id: string };
  if (by.type === 'system') return `the ${by.id}'s rule`;
  // A staff member's own key names them (stf_…); the shared ADMIN_API_KEY names `admin`.
  return by.type === 'admin' && by.id !== 'admin' ? `staff ${by.id}` : `${by.type} ${by.id}`;
};

const amount = (data: Data) => (typeof data.amount === 'number' ? etb(data.amount as Santim) : '');

/** `Seller One (seller-1)` when the escrow named the merchant, the id alone otherwise. */
export function merchantLabel(merchantId: string, names: MerchantNames = {}): string {
  const name = names[merchantId];
  return name ? `${name} (${merchantId})` : merchantId;
}

const scheduleWords = (schedule: PayoutSchedule) => {
  if (schedule.kind === 'manual') return 'paid on request only';
  const at = addisHour(schedule.hour);
  return schedule.kind === 'daily' ? `paid daily at ${at}` : `paid every ${schedule.weekday} at ${at}`;
};

/** A settings version as finance reads it: when money leaves, the least that does, how long it is held, who is told. */
const settingsWords = (settings: PayoutSettings) =>
  [
    scheduleWords(settings.schedule),
    `minimum ${etb(settings.minimumAmount)}`,
    settings.payoutDelayDays ? `money held ${settings.payoutDelayDays} day${settings.payoutDelayDays === 1 ? '' : 's'} before it is available` : 'money available at once',
    settings.callbackUrl ? `callbacks to ${settings.callbackUrl}` : 'no payout callbacks',
  ].join('; ');

/** One line a person can read for each event of a stream: orders and escrows, callbacks, payouts, transfers, merchants. */
const DESCRIBE: Record<string, (data: Data, names: MerchantNames) => string> = {
  EscrowCreated: (d) => `Escrow created for ${amount(d)}`,
  OrderCreated: (d) => `Order created for ${amount(d)}`,
  EscrowPaymentInitiated: () => 'Payment request sent to the customer',
  OrderPaymentInitiated: () => 'Payment request sent to the customer',
  EscrowFunded: (d) => `Paid ${amount(d)}: funds held`,
  OrderPaid: (d) => `Paid ${amount(d)}`,
  EscrowPaymentFailed: (d) => `Payment failed (${String(d.reason ?? '')})`,
  OrderPaymentFailed: (d) => `Payment failed (${String(d.reason ?? '')})`,
  EscrowExpired: () => 'Expired unpaid',
  OrderExpired: () => 'Expired unpaid',
  AllocationReleased: (d, names) =>
    `Released ${amount(d)} to ${merchantLabel(String(d.merchantId), names)}${typeof d.fee === 'number' && d.fee > 0 ? `, fee ${etb(d.fee as Santim)}` : ''}${d.automatic ? ' (automatic release)' : ''}`,
  AutoReleaseRescheduled: (d) => (d.autoReleaseAt ? `Automatic release moved to ${when(String(d.autoReleaseAt))}` : 'Automatic release cleared'),
  DisputeOpened: (d, names) => `Dispute opened on ${(d.merchantIds as string[]).map((id) => merchantLabel(id, names)).join(', ')}: ${String(d.reason)}`,
  DisputeResolved: (d, names) =>
    `Dispute resolved: ${(d.resolutions as { merchantId: string; release: Santim; refund: Santim }[]).map((r) => `${merchantLabel(r.merchantId, names)} ${etb(r.release)} released, ${etb(r.refund)} refunded`).join('; ')}`,
  EscrowCancelled: (d) => `Cancelled${d.reason ? `: ${String(d.reason)}` : ''}`,
  EscrowPaymentRefused: (d) => `A late payment of ${amount(d)} was refused`,
  OrderPaymentRefused: (d) => `A late payment of ${amount(d)} was refused`,
  EscrowRefundRequested: (d, names) =>
    d.reason === 'REVERSED'
      ? `${amount(d)} released to ${merchantLabel((d.merchantIds as string[])[0], names)} taken back and refunded to the customer${typeof d.feeReturned === 'number' && d.feeReturned > 0 ? `, fee ${etb(d.feeReturned as Santim)} given back` : ''}${d.note ? `: ${String(d.note)}` : ''}`
      : `Refund of ${amount(d)} requested${d.note ? `: ${String(d.note)}` : ''}`,
  OrderRefundRequested: (d) => `Refund of ${amount(d)} requested${d.note ? `: ${String(d.note)}` : ''}`,
  EscrowRefundFailed: (d) => `The provider refused the refund (${String(d.reason ?? '')}); it will be retried`,
  OrderRefundFailed: (d) => `The provider refused the refund (${String(d.reason ?? '')}); it will be retried`,
  EscrowRefundCompleted: () => 'Refund confirmed by the provider',
  OrderRefundCompleted: () => 'Refund confirmed by the provider',
  CallbackScheduled: (d) => `Callback for ${String(d.sourceEventType)} scheduled to ${String(d.url)}`,
  CallbackAttempted: (d) =>
    `Callback attempt ${String(d.attempt)}: ${d.statusCode ? `the merchant's server answered ${String(d.statusCode)}` : `no answer (${String(d.error ?? 'unknown error')})`} in ${String(d.latencyMs)} ms`,
  CallbackDelivered: (d) => `Callback delivered on attempt ${String(d.attempt)}`,
  CallbackAbandoned: (d) => `Callback abandoned after ${String(d.attempts)} attempts: ${String(d.reason)}`,
  CallbackRedeliveryRequested: () => 'The merchant asked for the callback to be sent again',
  MerchantRegistered: (d) => `Merchant ${String(d.name)} registered`,
  MerchantApiSecretRotated: () => 'API secret rotated',
  MerchantWebhookSecretRotated: () => 'Webhook secret rotated',
  MerchantOwnerInvited: () => 'Dashboard owner invited',
  WebhookEndpointCreated: (d) => `Webhook endpoint ${String(d.url)} created for ${(d.events as string[]).join(', ')}`,
  WebhookEndpointUpdated: (d) => `Webhook endpoint changed: ${String(d.url)} for ${(d.events as string[]).join(', ')}${d.disabled ? ', disabled' : ''}`,
  WebhookEndpointSecretRotated: () => 'Webhook endpoint secret rotated',
  WebhookEndpointTestRequested: (d) => `Test event ${String(d.testId)} requested`,
  WebhookEndpointDeleted: () => 'Webhook endpoint deleted',
  AccountCreated: (d) => `Account ${String(d.name)} (${String(d.type)}) created by platform ${String(d.merchantId)}${d.reference ? `, reference ${String(d.reference)}` : ''}`,
  AccountUpdated: (d) => `Account changed: ${Object.keys(d.changes as object).join(', ')}`,
  AccountVerified: (d) => `Account verified by ${decidedBy(d)}${d.reason ? `: ${String(d.reason)}` : ''}`,
  AccountRejected: (d) => `Account rejected by ${decidedBy(d)}: ${String(d.reason)}`,
  AccountRestricted: (d) => (d.liftsTo ? `Account restricted until what is past due arrives (${String(d.reason)})` : `Account restricted until reviewed again (${String(d.reason)})`),
  AccountRestrictionLifted: (d) => `Account ${String(d.status)} again: ${String(d.reason)}`,
  AccountClosed: (d) => `Account closed by ${String((d.closedBy as { id: string }).id)}: ${String(d.reason)}`,
  AccountPayoutDestinationChanged: (d) => `Payout destination version ${String(d.version)} set: the platform is told`,
  AccountWebhookSecretRotated: () => 'Account webhook secret rotated',
  AccountOwnerInvited: () => "Dashboard invitation issued for the seller's owner",
  AccountOwnerInvitationUsed: () => "The seller's owner used the dashboard invitation and signed in",
  AccountInformationRequested: (d) =>
    `Information asked by ${decidedBy(d)}: ${(d.requirements as { kind: string; dueBy: string }[]).map((r) => `${r.kind} by ${r.dueBy}`).join(', ')}${d.reason ? ` (${String(d.reason)})` : ''}`,
  AccountDocumentUploaded: (d) => `Document ${String(d.documentId)} uploaded: ${String(d.kind)}, ${String(d.contentType)}, ${String(d.size)} bytes, SHA-256 ${String(d.sha256)}`,
  PayoutDestinationSet: (d) => {
    const destination = d.destination as { kind: string; institution: string; accountMask: string };
    return `Payout destination set (version ${String(d.version)}): ${destination.kind} ${destination.institution} ${destination.accountMask}`;
  },
  // A payout of its own stream settles a range of the payable (after, through]; one of the payout account stream from before listed its movements.
  PayoutRequested: (d) => `Payout of ${amount(d)} requested, ${Array.isArray(d.settles) ? `settling ${d.settles.length} movements` : `settling the payable${d.fees ? ' and fees' : ''} up to their balance`}`,
  PayoutBooked: (d) => `Payout ${String(d.payoutId)} booked: the merchant's next payout is decided after it`,
  TransferBooked: (d) => `Transfer ${String(d.transferId)} booked: the merchant's next payout or transfer is decided after it`,
  AccountClosureBooked: (d) => `Closing of account ${String(d.accountId)} booked: no payout or transfer of it is decided alongside it`,
  AllocationReversalBooked: (d) => `Reversal ${String(d.refundId)} of escrow ${String(d.escrowId)} booked: the merchant's next payout, transfer or closing is decided after it`,
  PayoutDestinationFailed: (d) => `Payout destination version ${String(d.version)} paused: payout ${String(d.payoutId)} to it failed`,
  PayoutSettingsChanged: (d) => `Payout settings version ${String(d.version)}: ${settingsWords(d.settings as PayoutSettings)}`,
  PayoutSent: () => 'Payout sent to the provider',
  PayoutPaid: (d) => `Payout of ${amount(d)} paid (provider reference ${String(d.externalReferenceId)})`,
  PayoutFailed: (d) => `Payout of ${amount(d)} failed (${String(d.reason)}); the money is back in the payable${d.fees ? ' and fees' : ''}`,
  PayoutCanceled: (d) => `Payout of ${amount(d)} cancelled before it was sent; the money is back in the payable${d.fees ? ' and fees' : ''}`,
  PayoutAccountCarriedOver: (d) => `Payout account carried over to the newer streams (${String(d.payouts)} payouts to their own): nothing is recorded here any more`,
  PayoutCarriedOver: (d) => `Payout of ${amount(d)} carried over from the payout account stream, ${String(d.status)}: its money moved with its request there`,
  PayoutDestinationCarriedOver: (d) => `Payout destination version ${String(d.version)} carried over from the payout account stream${d.failed ? ', paused' : ''}`,
  PayoutSettingsCarriedOver: (d) => `Payout settings version ${String(d.version)} carried over from the payout account stream: ${settingsWords(d.settings as PayoutSettings)}`,
  PayoutsPaused: (d) => `Payouts paused (${String(d.reason)}): none is paid until they are resumed`,
  PayoutsResumed: () => 'Payouts resumed',
  TransferCreated: (d, names) =>
    `${String(d.platformId) === String(d.source) ? 'Transfer' : 'Penalty transfer'} of ${amount(d)} from ${merchantLabel(String(d.source), names)} to ${merchantLabel(String(d.destination), names)}${d.allowNegative ? ' (may take it below zero)' : ''}: ${String(d.description)}`,
  TransferReversed: (d, names) => `${amount(d)} of the transfer given back by ${merchantLabel(String(d.destination), names)} to ${merchantLabel(String(d.source), names)}`,
  PlatformLinked: (d, names) =>
    `${merchantLabel(String(d.merchantId), names)} let the platform ${merchantLabel(String(d.platformId), names)} debit and credit it (decided by ${d.decidedBy === 'operator' ? 'the operator' : 'the merchant'})`,
  PlatformLinkRevoked: (d, names) =>
    `${merchantLabel(String(d.merchantId), names)} revoked the platform ${merchantLabel(String(d.platformId), names)}'s link (decided by ${d.decidedBy === 'operator' ? 'the operator' : 'the merchant'})`,
  ProviderStatementReconciled: (d) => {
    const run = d as unknown as ProviderStatementReconciled['data'];
    const { counts } = run;
    const found = discrepancyCount(counts);
    const outcome =
      found === 0
        ? `all ${counts.lines} lines and ${counts.movements} movements matched`
        : `${counts.matched} matched; ${counts.missingOnOurSide} missing on our side, ${counts.missingOnTheirSide} missing on theirs, ${counts.amountMismatch} amount and ${counts.statusMismatch} status mismatches`;
    return `${ranByWords(run.ranBy)} reconciled the ${run.provider} statement for ${run.statementDay} (file SHA-256 ${run.fileSha256.slice(0, 12)}…): ${outcome}`;
  },
};

export function describeEvent(event: Pick<AuditEvent, 'type' | 'data'>, names: MerchantNames = {}): string {
  const describe = DESCRIBE[event.type];
  return describe ? describe((event.data ?? {}) as Data, names) : event.type;
}

/** An ordered list of events; `link` adds a per-event control, `current` marks one revision. */
export function timeline(events: AuditEvent[], options: { link?: (event: AuditEvent) => SafeHtml; current?: string; names?: MerchantNames } = {}): SafeHtml {
  return html`<ol class="timeline" aria-label="Event timeline">${events.map(
    (event) => html`<li${new SafeHtml(event.revision === options.current ? ' class="current" aria-current="step"' : '')}>
<strong>${describeEvent(event, options.names)}</strong><br><span class="muted">${when(event.recordedAt)} · ${event.type} · revision ${event.revision}</span>${options.link ? html` ${options.link(event)}` : ''}</li>`,
  )}</ol>`;
}
