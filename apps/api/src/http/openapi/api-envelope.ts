import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export interface EnvelopeOptions {
  status?: number;
  /** The envelope's `message` on this answer. */
  message: string;
  description?: string;
}

/**
 * A success answer in the spec's envelope `{status, timestamp, message, data}` (src/http/envelope.ts),
 * with `data` typed by a response DTO, or a list of them when given as `[Dto]`.
 */
export function ApiEnvelope(data: Type<unknown> | [Type<unknown>], { status = 200, message, description }: EnvelopeOptions) {
  const model = Array.isArray(data) ? data[0] : data;
  const dataSchema = Array.isArray(data) ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
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
