import { escrowOutlineFold, isPayableStream, orderOutlineFold, type OutlineFold, type PayableKind, streamKind } from '@app/domain';
import { foldedView, type FoldedViewSpec, inlineFoldedView } from '../projector/folded-view.projection';
import { escrowView, orderView, type PayableView } from './payable-view';

/**
 * Each kind of payable's fold, and the document of the payable in a state its decider folded (the
 * projector's fold, or the writer's state after an append, written inline), read only through the
 * outline the domain publishes: the state itself stays opaque here. One entry per payable kind: a
 * new one does not compile until it has its own.
 */
const PAYABLES: Record<PayableKind, { decider: OutlineFold<unknown>['decider']; view: (state: unknown) => PayableView | undefined }> = {
  order: {
    decider: orderOutlineFold.decider,
    view: (state) => {
      const order = orderOutlineFold.outline(state);
      return order && orderView(order);
    },
  },
  escrow: {
    decider: escrowOutlineFold.decider,
    view: (state) => {
      const escrow = escrowOutlineFold.outline(state);
      return escrow && escrowView(escrow);
    },
  },
};

/** The payables view follows payable streams only (`streams` below), so the kind is always one of them. */
const payableOf = (streamId: string) => PAYABLES[streamKind(streamId) as PayableKind];

/** Orders and escrows as their queries read them (payable-view.ts): the columns they filter on, and the document they present. */
const payables: FoldedViewSpec<unknown> = {
  name: 'payables_view',
  // 2: each allocation's held, released and refunded amounts, the escrow's releases, an order's refunded amount; fees.
  // 3: the revision of the stream's last event, so the view's two writers (inline and the projector) never step it back.
  // 4: an escrow part released and part refunded is PARTIALLY_REFUNDED (its payment PAID), no longer REFUNDED.
  // 5: the test clock an order or an escrow is attached to.
  version: 5,
  table: 'payables_view',
  key: 'payable_id',
  columns: ['payable_id', 'kind', 'merchant_id', 'merchant_order_id', 'status', 'payment_status', 'amount', 'expires_at', 'auto_release_at', 'document', 'created_at', 'updated_at', 'revision'],
  streams: isPayableStream,
  writtenInline: true,
  companions: [
    {
      // Which escrows each payee has a share in, whoever created them (an account's list of its escrows),
      // from the escrow's row as it is written: an escrow's payees and status cost no statement of their own.
      // A step that leaves the escrow's status as it was (a second partial release) rewrites none of its rows.
      table: 'escrow_allocations',
      insert: (written) => `INSERT INTO escrow_allocations (merchant_id, escrow_id, creator_id, status, created_at)
        SELECT allocation->>'merchantId', w.payable_id, w.merchant_id, w.status, w.created_at
        FROM ${written} w CROSS JOIN LATERAL jsonb_array_elements(w.document->'allocations') AS allocation
        WHERE w.kind = 'escrow'
        ON CONFLICT (merchant_id, escrow_id) DO UPDATE SET status = EXCLUDED.status WHERE escrow_allocations.status <> EXCLUDED.status`,
    },
  ],
  fold: (streamId, _history, histories) => histories.stateOf(streamId, payableOf(streamId).decider),
  row: (streamId, state) => {
    const view = payableOf(streamId).view(state);
    return view && {
      payable_id: view.id,
      kind: view.kind,
      merchant_id: view.merchantId,
      merchant_order_id: view.merchantOrderId ?? null,
      status: view.status,
      payment_status: view.paymentStatus,
      amount: view.amount,
      expires_at: view.expiresAt,
      // Due only while something is held and not frozen: once all is released, refunded or disputed, nothing is left to release.
      auto_release_at: view.autoReleaseAt && view.allocations?.some((a) => a.held > 0) ? view.autoReleaseAt : null,
      document: view,
    };
  },
};

export const payablesView = foldedView(payables);

/** The same view, written by the PostgreSQL store in each append's statement (libs/infrastructure wires it in). */
export const inlinePayablesView = inlineFoldedView(payables);
