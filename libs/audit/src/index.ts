export * from './canonical-json';
export * from './hash-chain';
export * from './ledger-rules';
