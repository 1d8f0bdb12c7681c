// The audit's application: the module providing the readers it answers from, and the audit API's OpenAPI examples.
export * from './audit-feature.module';
export * from './audit.examples';
