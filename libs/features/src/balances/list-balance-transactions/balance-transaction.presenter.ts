import { type BalanceTransaction, signedBirr } from '@app/read-models';

/** A balance transaction as the API answers it: signed ETB; `paid` only when it is listed for a payout. */
export function presentBalanceTransaction(line: BalanceTransaction) {
  return {
    eventId: line.eventId,
    type: line.type,
    gross: signedBirr(line.gross),
    fee: signedBirr(line.fee),
    net: signedBirr(line.net),
    recovered: signedBirr(line.recovered),
    currency: 'ETB',
    availableOn: line.availableOn,
    source: line.source,
    description: line.description,
    counterparty: line.counterparty,
    sourceDescription: line.sourceDescription,
    escrowId: line.escrowId,
    orderId: line.orderId,
    createdAt: line.createdAt.toISOString(),
    ...(line.paid === undefined ? {} : { paid: signedBirr(line.paid) }),
  };
}

export type BalanceTransactionAnswer = ReturnType<typeof presentBalanceTransaction>;
