import { applyDecorators } from '@nestjs/common';
import { Query } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { InvalidInput } from '@app/domain';
import type { PayableListPage, PayableListQuery } from '@app/read-models';
import { optionalInstant, parseLimit } from '@app/http';

/** A page of orders or escrows, newest first; a cursor that is none of them is UNKNOWN_CURSOR. */
export class ListPayablesQuery extends Query<PayableListPage> {
  constructor(readonly list: PayableListQuery) {
    super();
  }
}

/** What a list's query string may hold. */
export interface ListParameters {
  limit?: string;
  startingAfter?: string;
  status?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** The query string's filters and page, checked: a bad limit, status or instant is a 400 and nothing is read. */
export function listFilter(parameters: ListParameters, statuses: readonly string[]): Omit<PayableListQuery, 'kind' | 'scope'> {
  if (parameters.status && !statuses.includes(parameters.status)) throw new InvalidInput(`status must be one of ${statuses.join(', ')}`);
  const createdAfter = optionalInstant(parameters.createdAfter, 'createdAfter');
  const createdBefore = optionalInstant(parameters.createdBefore, 'createdBefore');
  if (createdAfter && createdBefore && createdAfter >= createdBefore) throw new InvalidInput('createdAfter must come before createdBefore');
  return {
    limit: parseLimit(parameters.limit, 10, 100),
    startingAfter: parameters.startingAfter || undefined,
    status: parameters.status || undefined,
    createdAfter,
    createdBefore,
  };
}

/** The list's query parameters in the OpenAPI document. */
export const ApiListParameters = (statuses: readonly string[]) =>
  applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 10' }),
    ApiQuery({ name: 'startingAfter', required: false, description: 'The id of the last item of the page before' }),
    ApiQuery({ name: 'status', required: false, enum: statuses }),
    ApiQuery({ name: 'createdAfter', required: false, description: 'Created at or after this instant (ISO 8601 with its zone)', example: '2026-11-01T00:00:00+03:00' }),
    ApiQuery({ name: 'createdBefore', required: false, description: 'Created before this instant (ISO 8601 with its zone)', example: '2026-12-01T00:00:00+03:00' }),
  );
