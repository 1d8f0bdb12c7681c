// Escrows' application: the handlers of the commands that create and change an escrow, the command only the REST edge sends (creating one) and the OpenAPI examples of its routes. The commands both wings send are libs/contract's.
export * from './cancel-escrow/cancel-escrow.handler';
export * from './change-escrow/change-escrow.handler';
export * from './create-escrow/create-escrow.command';
export * from './create-escrow/create-escrow.handler';
export * from './create-escrow/create-escrow.request';
export * from './escrows-feature.module';
export * from './escrows.examples';
export * from './refund-allocation/refund-allocation.handler';
export * from './release-allocation/release-allocation.handler';
