/** A stream's id without its kind (`escrow-{id}`, `callback-{id}`, STYLE.md): what a view keys the stream's rows by. */
export const streamKey = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** Orders and escrows: the streams the payable views (payables, ledger, provider operations) follow. */
export const isPayableStream = (streamId: string) => streamId.startsWith('order-') || streamId.startsWith('escrow-');
