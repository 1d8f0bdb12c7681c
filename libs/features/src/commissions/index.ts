// Commissions' application: changing a rule, the stream a rule lives in, the rules in force for an escrow's allocations, how a rule is presented and the OpenAPI examples of its routes.
export * from './change-commission.command';
export * from './change-commission.handler';
export * from './commission-stream';
export * from './commission.presenter';
export * from './commissions-feature.module';
export * from './commissions-in-force';
export * from './commissions.examples';
