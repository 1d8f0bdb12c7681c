import { accountApiName, type AccountEvent, accountOf, accountPreviousAttributes, type EscrowOutline, formatEtb, type Santim, subtractSantim } from '@app/domain';
import type { CallbackMessage, CallbackPayload, SourceEvent } from './callback-message';
import { deliveryIdFor } from './delivery-ids';
import { amount } from './payload-fields';
import { reversalFields, type ReversalShare, reversalShare } from './reversal-share';

/** A seller's copy of an event has a delivery of its own: derived from the event and the account, as an endpoint's is from the endpoint. */
const sellerDeliveryId = (sourceEventId: string, accountId: string) => deliveryIdFor(`${sourceEventId}\n${accountId}`);

/**
 * The message to one of a platform's seller accounts: signed with the account's own secret, sent to its
 * callbackURL (the dispatcher reads it from the account's stream), listed in its events API. The
 * payload is the platform's where it tells of that account alone, else rebuilt around its share.
 */
function toSeller(platform: CallbackMessage, accountId: string, sourceEventId: string, payload: Record<string, unknown> & { status: string }): CallbackMessage {
  const deliveryId = sellerDeliveryId(sourceEventId, accountId);
  const { orderId, merchantOrderId } = platform;
  return {
    merchantId: accountId,
    orderId,
    ...(merchantOrderId !== undefined ? { merchantOrderId } : {}),
    status: payload.status,
    payload: { ...payload, accountId, deliveryId },
  };
}

/** The payload's escrow tail (orderId, escrowId, escrow_status, metadata), which every escrow callback ends with. */
function escrowTail(payload: CallbackPayload) {
  const { orderId, escrowId, escrow_status, metadata } = payload as Record<string, unknown>;
  return { orderId, escrowId, escrow_status, metadata };
}

/** A seller's refund, in words: a reversal says what its balance gave and what the platform's fee did. */
function refundSentence(share: Santim, borne: ReversalShare | undefined): string {
  if (!borne) return `${formatEtb(share)} ETB of yours was refunded to the customer`;
  const fee = borne.feeReturned > 0 ? `, ${formatEtb(borne.feeReturned)} ETB of the fee given back by the platform` : '';
  return `${formatEtb(share)} ETB of yours was refunded to the customer after its release: ${formatEtb(borne.merchantDebited)} ETB taken from your balance${fee}`;
}

/**
 * What each seller account in an escrow's allocations hears of an escrow event (issue: sellers hear
 * about their own money): HELD when the escrow is paid, and its own RELEASED, REFUNDED, DISPUTED and
 * DISPUTE_RESOLVED, each with its own share's amounts only, never another allocation's. Whether a payee
 * is one of the escrow creator's accounts is the escrow's own record of it (libs/domain's escrow.upcast.ts);
 * an account `tells` refuses is left out before its message is built.
 */
export function sellerMessages(event: SourceEvent, outline: EscrowOutline, platform: CallbackMessage, tells: (accountId: string) => boolean): CallbackMessage[] {
  const base = platform.payload;
  const isSeller = (merchantId: string) => outline.allocations.find((a) => a.merchantId === merchantId)?.account === true && tells(merchantId);
  const head = (status: string, message: string) => ({ billRefNo: base.billRefNo, status, timestamp: base.timestamp, message, merchantId: base.merchantId });
  const data = event.data as Record<string, unknown>;
  const seller = (accountId: string, payload: Record<string, unknown> & { status: string }) => toSeller(platform, accountId, event.id, payload);
  switch (event.type) {
    case 'EscrowFunded':
      return outline.allocations
        .filter((a) => a.account && tells(a.merchantId))
        .map((a) =>
          seller(a.merchantId, {
            ...head('HELD', `${formatEtb(a.amount)} ETB of yours is paid for and held in escrow until it is released`),
            amount: amount(a.amount),
            ...(a.fee ? { fee: amount(a.fee), net: amount(subtractSantim(a.amount, a.fee)) } : {}),
            ...escrowTail(platform.payload),
          }),
        );
    case 'AllocationReleased': {
      const accountId = data.merchantId as string;
      // A release tells of one allocation only: the platform's payload is the seller's.
      return isSeller(accountId) ? [seller(accountId, base)] : [];
    }
    case 'DisputeOpened':
      return (data.merchantIds as string[])
        .filter(isSeller)
        .map((accountId) => outline.allocations.find((a) => a.merchantId === accountId)!)
        .map((a) =>
          seller(a.merchantId, {
            ...head('DISPUTED', `${formatEtb(a.frozen)} ETB of yours frozen under dispute: ${String(base.reason)}`),
            reason: base.reason,
            allocations: [{ merchantId: a.merchantId, frozen: amount(a.frozen) }],
            ...escrowTail(platform.payload),
          }),
        );
    case 'DisputeResolved':
      return (data.resolutions as { merchantId: string; release: Santim; refund: Santim }[])
        .filter((r) => isSeller(r.merchantId))
        .map((r) =>
          seller(r.merchantId, {
            ...head('DISPUTE_RESOLVED', `The dispute is settled: ${formatEtb(r.release)} ETB of yours released, ${formatEtb(r.refund)} ETB refunded`),
            allocations: [{ merchantId: r.merchantId, release: amount(r.release), refund: amount(r.refund) }],
            ...escrowTail(platform.payload),
          }),
        );
    case 'EscrowRefundCompleted': {
      const refund = outline.refunds.find((r) => r.refundId === (data.refundId as string));
      if (!refund) return [];
      return refund.shares
        .filter((share) => isSeller(share.merchantId) && share.amount > 0)
        .map((share) => {
          // A reversal takes released money back from the seller's balance: it says how much of it the seller bore.
          const borne = reversalShare(refund, share);
          return seller(share.merchantId, {
            ...head('REFUNDED', refundSentence(share.amount, borne)),
            externalReferenceId: base.externalReferenceId,
            amount: amount(share.amount),
            ...reversalFields(borne),
            refundId: base.refundId,
            allocations: [{ merchantId: share.merchantId, amount: amount(share.amount), ...reversalFields(borne) }],
            ...escrowTail(platform.payload),
          });
        });
    }
    default:
      return [];
  }
}

/**
 * A transfer's other party hears of it as the platform does, with a delivery of its own (issue: transfers,
 * TRANSFER_CREATED / TRANSFER_REVERSED to the platform and to the account); a registered merchant
 * on the other side has no callbackURL of its own, its webhook endpoints and events API have it.
 */
export function counterpartyMessage(event: SourceEvent, platform: CallbackMessage, counterparty: string): CallbackMessage {
  const { orderId, status, payload } = platform;
  return { merchantId: counterparty, orderId, status, payload: { ...payload, deliveryId: sellerDeliveryId(event.id, counterparty) } };
}

/** What an account event changed, by the names the API gives them. */
function changedBy(event: AccountEvent): string[] {
  switch (event.type) {
    case 'AccountUpdated':
      return Object.keys(event.data.changes).map(accountApiName);
    case 'AccountPayoutDestinationChanged':
      return ['payoutDestination'];
    case 'AccountInformationRequested':
      return ['requirementsDue'];
    case 'AccountDocumentUploaded':
      return ['documents'];
    case 'AccountVerified':
    case 'AccountRejected':
    case 'AccountRestricted':
    case 'AccountRestrictionLifted':
    case 'AccountClosed':
      return ['status'];
    default:
      return [];
  }
}

function sentence(event: AccountEvent, accountId: string, changed: readonly string[]): string {
  switch (event.type) {
    case 'AccountVerified':
      return `Account ${accountId} was verified: it may be paid out once nothing is missing`;
    case 'AccountRejected':
      return `Account ${accountId} was rejected: ${event.data.reason}`;
    case 'AccountRestricted':
      return event.data.liftsTo
        ? `Account ${accountId} was restricted, its payouts stopped, until what is past due arrives: ${event.data.reason}`
        : `Account ${accountId} was restricted until it is reviewed again: ${event.data.reason}`;
    case 'AccountRestrictionLifted':
      return `Account ${accountId} is ${event.data.status} again: ${event.data.reason}`;
    case 'AccountInformationRequested': {
      const asked = event.data.requirements.map((r) => `${r.kind} by ${r.dueBy}`).join(', ');
      return `The operator asks account ${accountId} for ${asked}${event.data.reason ? ` (${event.data.reason})` : ''}: past its due instant a requirement restricts the account's payouts until it arrives`;
    }
    case 'AccountDocumentUploaded':
      return `Document ${event.data.documentId} (${event.data.kind}) was uploaded for account ${accountId}`;
    case 'AccountClosed':
      return `Account ${accountId} was closed by ${event.data.closedBy.id}: ${event.data.reason}`;
    case 'AccountPayoutDestinationChanged':
      return `Account ${accountId} has a new payout destination: its payouts wait out the hold after a destination change`;
    default:
      return `Account ${accountId} was updated: ${changed.join(', ')}`;
  }
}

/**
 * ACCOUNT_UPDATED, to the platform that owns the account (its webhook endpoints and events API): a
 * change of its details, its verification status or its closing, or its payout destination (the guard against a
 * taken-over seller login is that the platform hears of that at once).
 */
export function accountUpdatedMessage(event: SourceEvent, history: readonly { type: string; data: unknown }[]): CallbackMessage | undefined {
  const e = event as unknown as AccountEvent;
  const changed = changedBy(e);
  const account = accountOf(history as AccountEvent[]);
  if (!account || changed.length === 0) return undefined;
  const { accountId, merchantId, reference, status } = account;
  const payload: CallbackPayload = {
    billRefNo: accountId,
    status: 'ACCOUNT_UPDATED',
    timestamp: event.recordedAt.toISOString(),
    message: sentence(e, accountId, changed),
    merchantId,
    accountId,
    accountStatus: status,
    changed,
    // What the update changed from what: on updates recorded since it is kept (AccountUpdated's `previous`).
    ...(e.type === 'AccountUpdated' && e.data.previous ? { previousAttributes: accountPreviousAttributes(e.data.previous) } : {}),
    ...(reference !== undefined ? { reference } : {}),
    orderId: accountId,
    deliveryId: deliveryIdFor(event.id),
  };
  return { merchantId, orderId: accountId, status: 'ACCOUNT_UPDATED', payload };
}
