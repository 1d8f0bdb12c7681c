// Payables' application: the queries over orders and escrows alike (one payable, a page of them) and their handlers. GetPayableQuery, which the faces send too, is libs/contract's.
export * from './get-payable.handler';
export * from './list-payables.handler';
export * from './list-payables.query';
export * from './payables-feature.module';
