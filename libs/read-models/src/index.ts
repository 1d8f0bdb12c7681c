export * from './projection';
export * from './aggregate-view.projection';
export * from './views';
export * from './projector';
export * from './projection-progress';
export * from './read-model.migrations';
export * from './ledger.projection';
export * from './rebuild';
