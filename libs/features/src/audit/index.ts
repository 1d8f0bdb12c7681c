// The audit's application: the audit API's queries and their handlers, the module providing them with the readers they answer from, and the audit API's OpenAPI examples.
export * from './audit-feature.module';
export * from './audit.errors';
export * from './audit.examples';
export * from './audit.handlers';
export * from './audit.queries';
