export * from './delivery.events';
export * from './delivery.decider';
export * from './retry-schedule';
export * from './signature';
export * from './callback-payloads';
export * from './callback-payload.schemas';
