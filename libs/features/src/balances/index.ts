// Balances' application: the query of a merchant's balance transactions, its handler and presenter, and the module providing the handler.
export * from './balances-feature.module';
export * from './list-balance-transactions/balance-transaction.presenter';
export * from './list-balance-transactions/list-balance-transactions.handler';
export * from './list-balance-transactions/list-balance-transactions.query';
