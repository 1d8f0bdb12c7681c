import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, any>;

/** `nullable` (3.0) as JSON Schema's own null type (3.1): "the object null" becomes `{type: 'null'}`. */
function withoutNullable(schema: Schema): void {
  if (schema.nullable !== true) return;
  delete schema.nullable;
  if (schema.type === 'object' && Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) {
    delete schema.enum;
    schema.type = 'null';
    return;
  }
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

function visit(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item);
  } else if (value && typeof value === 'object') {
    withoutNullable(value as Schema);
    for (const child of Object.values(value)) visit(child);
  }
}

/**
 * The document @nestjs/swagger writes (OpenAPI 3.0) as OpenAPI 3.1, which has a top-level `webhooks`
 * for the callback payloads (issue 32, item 1). Of what the two versions say differently the document
 * uses only `nullable`; binary formats and boolean exclusive bounds, the other changes, appear nowhere
 * in it (test/e2e/openapi-contract.spec.ts lints the result as 3.1).
 */
export function asOpenApi31(document: OpenAPIObject): OpenAPIObject {
  visit(document.paths);
  visit(document.components);
  return { ...document, openapi: '3.1.0' };
}
