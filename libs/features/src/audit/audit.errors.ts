import { DomainError } from '@app/domain';

/** A stream name under which the log holds no event: the audit API has no history to show for it. */
export class StreamNotFound extends DomainError {
  constructor(streamId: string) {
    super('ABC_001', `Stream ${streamId} has no events`, 'not_found');
  }
}
