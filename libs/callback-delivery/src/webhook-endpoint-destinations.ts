import { type CallbackMessage, endpointCallback, endpointOwners, type PlannedCallback, subscribesTo } from '@app/callbacks';
import type { SqlExecutor } from '@app/database';
import type { RecordedEvent } from '@app/event-store';
import type { ProjectedReads } from '@app/infrastructure';
import { type StoredWebhookEndpoint, webhookEndpointsOf } from '@app/read-models';

export interface AddressedMessage {
  event: RecordedEvent;
  message: CallbackMessage;
}

/** The platform a seller account belongs to; undefined for a merchant that is no account. */
export type PlatformOf = (merchantId: string) => string | undefined;

/** A test event goes to its endpoint alone; any other to each live endpoint of its owners subscribed to its status and made before it. */
function receives({ endpoint, createdAt }: StoredWebhookEndpoint, { event, message }: AddressedMessage, platformOf: PlatformOf): boolean {
  if (message.endpointId !== undefined) return endpoint.endpointId === message.endpointId;
  return (
    !endpoint.disabled &&
    endpointOwners(message, platformOf(message.merchantId)).includes(endpoint.merchantId) &&
    subscribesTo(endpoint.events, message.status) &&
    createdAt <= event.recordedAt
  );
}

/** Which of the merchants' webhook endpoints each of a batch's callbacks goes to, as deliveries of their own. */
export class WebhookEndpointDestinations {
  constructor(
    private readonly db: SqlExecutor,
    private readonly reads: Pick<ProjectedReads, 'reach'>,
  ) {}

  /** The deliveries to endpoints, message by message. */
  async address(messages: readonly AddressedMessage[], platformOf: PlatformOf = () => undefined): Promise<PlannedCallback[][]> {
    if (messages.length === 0) return [];
    // The view as it stands once it includes the batch: an endpoint created, changed or deleted before one of its events is seen so.
    await this.reads.reach(messages[messages.length - 1].event.position, 'callback-dispatcher');
    const endpoints = await webhookEndpointsOf(this.db, [...new Set(messages.flatMap(({ message }) => endpointOwners(message, platformOf(message.merchantId))))]);
    return messages.map((addressed) =>
      endpoints.filter((stored) => receives(stored, addressed, platformOf)).map(({ endpoint }) => endpointCallback(addressed.message, addressed.event.id, endpoint)),
    );
  }
}
