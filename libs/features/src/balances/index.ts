// Balances' application: the balance's query and its handler (provided by BalancesFeatureModule); the reads are libs/read-models'.
export * from './balances-feature.module';
export * from './get-balance.handler';
export * from './get-balance.query';
