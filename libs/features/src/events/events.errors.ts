import { CALLBACK_TYPES } from '@app/callbacks';
import { DomainError, InvalidInput } from '@app/domain';

/** The events API's `type` is one of the callbacks' statuses. */
export class UnknownEventType extends InvalidInput {
  constructor() {
    super(`type must be one of ${CALLBACK_TYPES.join(', ')}`, 'UNKNOWN_EVENT_TYPE');
  }
}

/** The events API lists oldest first (`asc`) or newest first (`desc`). */
export class InvalidListOrder extends InvalidInput {
  constructor() {
    super('order must be asc (oldest first) or desc (newest first)', 'INVALID_LIST_ORDER');
  }
}

/** A page of the events API holds 1 to 100 events. */
export class InvalidPageSize extends InvalidInput {
  constructor(max: number) {
    super(`limit must be an integer from 1 to ${max}`, 'INVALID_PAGE_SIZE');
  }
}

/** A query parameter given more than once, where the events API takes one value. */
export class RepeatedQueryParameter extends InvalidInput {
  constructor(name: string) {
    super(`${name} may be given once`, 'REPEATED_QUERY_PARAMETER');
  }
}

export class EventNotFound extends DomainError {
  constructor(eventId: string) {
    super('ABC_001', `Event ${eventId} was not found`, 'not_found');
  }
}
