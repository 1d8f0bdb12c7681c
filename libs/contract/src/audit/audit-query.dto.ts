import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { InvalidInput } from '@app/domain';
import { type LogPosition, parsePosition } from '@app/event-store';
import type { EventFilter } from '@app/audit';
import { optionalInstant, parseLimit } from '@app/http';

function parseCursor(value: string | undefined): LogPosition | undefined {
  if (value === undefined || value === '') return undefined;
  const position = parsePosition(value);
  if (!position) throw new InvalidInput('after must be a position from a previous page (such as "812-1043")');
  return position;
}

/** Query-string filters of the event log: after, limit, type (comma-separated), stream, merchant, from, to. */
export function eventFilter(query: Record<string, string | undefined>, defaultLimit: number, maxLimit: number): EventFilter {
  return {
    after: parseCursor(query.after),
    limit: parseLimit(query.limit, defaultLimit, maxLimit),
    types: query.type ? query.type.split(',').map((t) => t.trim()).filter(Boolean) : undefined,
    streamId: query.stream || undefined,
    merchantId: query.merchant || undefined,
    from: optionalInstant(query.from, 'from'),
    to: optionalInstant(query.to, 'to'),
  };
}

/** The query string eventFilter reads, as the OpenAPI document states it. */
export const ApiEventFilters = () =>
  applyDecorators(
    ApiQuery({ name: 'after', required: false, description: 'The `next` of the previous page', example: '812-1043' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } }),
    ApiQuery({ name: 'type', required: false, description: 'Event types, comma-separated', example: 'EscrowCreated,AllocationReleased' }),
    ApiQuery({ name: 'stream', required: false, example: 'escrow-esc_01JD2K8M4Q' }),
    ApiQuery({ name: 'merchant', required: false }),
    ApiQuery({ name: 'from', required: false, description: 'An instant (ISO 8601 with a time zone)' }),
    ApiQuery({ name: 'to', required: false, description: 'An instant (ISO 8601 with a time zone)' }),
  );
