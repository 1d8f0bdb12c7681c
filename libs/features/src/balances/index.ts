// Balances' application: the queries of a balance and of its balance transactions, their handlers and presenter, and the module providing the handlers; the reads are libs/read-models'.
export * from './balances-feature.module';
export * from './get-balance.handler';
export * from './get-balance.query';
export * from './list-balance-transactions/balance-transaction.presenter';
export * from './list-balance-transactions/list-balance-transactions.handler';
export * from './list-balance-transactions/list-balance-transactions.query';
