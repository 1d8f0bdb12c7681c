import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export interface EnvelopeOptions {
  status?: number;
  /** The envelope's `message` on this answer. */
  message: string;
  description?: string;
  /** `data` is null when there is nothing yet (a payout destination never set). */
  nullable?: boolean;
}

/** OpenAPI 3.0 has no null type: a nullable reference is "the model, or the object null" (OAS 3.0.3, nullable). */
const NULL_VALUE = { type: 'object', nullable: true, enum: [null], description: 'None yet' };

/** A property (or `data`) that is a model or null; the model must be registered (ApiExtraModels). */
export function nullableModel(model: Type<unknown>) {
  return { anyOf: [{ $ref: getSchemaPath(model) }, NULL_VALUE] };
}

/**
 * A success answer in the spec's envelope `{status, timestamp, message, data}` (libs/http/src/envelope.ts),
 * with `data` typed by a response DTO, or a list of them when given as `[Dto]`.
 */
export function ApiEnvelope(data: Type<unknown> | [Type<unknown>], { status = 200, message, description, nullable = false }: EnvelopeOptions) {
  const model = Array.isArray(data) ? data[0] : data;
  const reference = { $ref: getSchemaPath(model) };
  const one = nullable ? nullableModel(model) : reference;
  const dataSchema = Array.isArray(data) ? { type: 'array', items: reference } : one;
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: description ?? message,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['status', 'timestamp', 'message', 'data'],
            additionalProperties: false,
            properties: {
              status: { type: 'string', enum: ['success'] },
              timestamp: { type: 'string', format: 'date-time', example: '2026-11-26T09:30:00.000Z' },
              message: { type: 'string', example: message },
              data: dataSchema,
            },
          },
        },
      },
    }),
  );
}
