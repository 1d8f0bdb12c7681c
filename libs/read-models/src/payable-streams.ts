/** Orders and escrows: the streams the payable views (payables, ledger, provider operations) follow. */
export const isPayableStream = (streamId: string) => streamId.startsWith('order-') || streamId.startsWith('escrow-');

/** A stream's id without its kind (`escrow-{id}`, STYLE.md): what the views key a payable by. */
export const payableId = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);
