import type { TransferOutline } from '@app/domain';

/** A transfer as its list and page show it, santim. */
export interface TransferView {
  transferId: string;
  platformId: string;
  source: string;
  destination: string;
  amount: number;
  reversed: number;
  description: string;
  metadata?: Record<string, unknown>;
  /** The escrow or payment order it belongs to, when the platform named one. */
  escrowId?: string;
  orderId?: string;
  allowNegative: boolean;
  reversals: { reversalId: string; amount: number; reversedAt: string }[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The column of `transfers_view` that keeps each of the view's fields: the one place the view's shape
 * meets its table's. The projection writes these columns (transfersView) and the reader selects them
 * under the fields' names (transfers.reader.ts); a field without a column does not compile.
 */
export const TRANSFER_COLUMNS = {
  transferId: 'transfer_id',
  platformId: 'platform_id',
  source: 'source',
  destination: 'destination',
  amount: 'amount',
  reversed: 'reversed',
  description: 'description',
  metadata: 'metadata',
  escrowId: 'escrow_id',
  orderId: 'order_id',
  allowNegative: 'allow_negative',
  reversals: 'reversals',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof TransferView, string>;

/**
 * A transfer's view in the state its events left it, at the times of its first and last events: the
 * row the projector writes, and what a create answers before the projector got there.
 */
export function transferView({ terms, reversed, reversals }: TransferOutline, times: { createdAt: Date; updatedAt: Date }): TransferView {
  return {
    transferId: terms.transferId,
    platformId: terms.platformId,
    source: terms.source,
    destination: terms.destination,
    amount: terms.amount,
    reversed,
    description: terms.description,
    ...(terms.metadata ? { metadata: terms.metadata } : {}),
    ...(terms.escrowId !== undefined ? { escrowId: terms.escrowId } : {}),
    ...(terms.orderId !== undefined ? { orderId: terms.orderId } : {}),
    allowNegative: terms.allowNegative,
    reversals,
    createdAt: times.createdAt,
    updatedAt: times.updatedAt,
  };
}

/** The view as its row: each field in its column, and a field it does not have left empty. */
export function transferRow(view: TransferView): Record<string, unknown> {
  return Object.fromEntries(Object.entries(TRANSFER_COLUMNS).map(([field, column]) => [column, view[field as keyof TransferView] ?? null]));
}

/** The view's columns, each under its field's name: what a reader selects to read a row back (transferFromRow). */
export const TRANSFER_SELECT = Object.entries(TRANSFER_COLUMNS)
  .map(([field, column]) => `${column} AS "${field}"`)
  .join(', ');

/** A row selected as TRANSFER_SELECT says, as the view: an empty column is a field the transfer does not have, and money (bigint) reads as a number. */
export function transferFromRow(row: Record<string, unknown>): TransferView {
  const fields = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as unknown as TransferView;
  return { ...fields, amount: Number(fields.amount), reversed: Number(fields.reversed), createdAt: new Date(fields.createdAt), updatedAt: new Date(fields.updatedAt) };
}
