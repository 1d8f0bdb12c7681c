export * from './hash-chain';
export * from './ledger-rules';
export * from './audit-log.reader';
export * from './csv';
export * from './reconciliation';
