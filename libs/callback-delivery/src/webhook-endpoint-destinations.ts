import { type CallbackMessage, endpointCallback, endpointOwners, type PlannedCallback, subscribesTo } from '@app/callbacks';
import type { SqlExecutor } from '@app/database';
import { streamKind } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { ProjectedReads } from '@app/infrastructure';
import { type StoredWebhookEndpoint, webhookEndpointsOf } from '@app/read-models';

export interface AddressedMessage {
  event: RecordedEvent;
  message: CallbackMessage;
}

/** The platform a seller account belongs to; undefined for a merchant that is no account. */
export type PlatformOf = (merchantId: string) => string | undefined;

/** Past this many owners what is kept is dropped and read again as needed: a bound on memory, not on staleness. */
const KEPT_OWNERS = 10_000;

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

/**
 * Which of the merchants' webhook endpoints each of a batch's callbacks goes to, as deliveries of their own.
 * An owner's endpoints are read from the view once the projector has passed the batch, then kept: the view
 * changes only with an endpoint's own events, and the dispatcher hands every batch of the log to `follow`
 * before addressing it, which drops what is kept on any of them. What is kept is therefore the view as it
 * stands once it includes the batch, as a read would find it, and a merchant without endpoints costs no read.
 */
export class WebhookEndpointDestinations {
  /** By owner (a merchant or seller account): its live endpoints. */
  private readonly kept = new Map<string, StoredWebhookEndpoint[]>();

  constructor(
    private readonly db: SqlExecutor,
    private readonly reads: Pick<ProjectedReads, 'reach'>,
  ) {}

  /** Called with each batch of the log, in order, before anything in it is addressed. */
  follow(events: readonly RecordedEvent[]): void {
    if (events.some((event) => streamKind(event.streamId) === 'webhookEndpoint')) this.kept.clear();
  }

  /** Whether what is kept says `owner` has no endpoint; false when nothing is kept. */
  keptWithoutEndpoints(owner: string): boolean {
    return this.kept.get(owner)?.length === 0;
  }

  /** The deliveries to endpoints, message by message. */
  async address(messages: readonly AddressedMessage[], platformOf: PlatformOf = () => undefined): Promise<PlannedCallback[][]> {
    if (messages.length === 0) return [];
    const owners = [...new Set(messages.flatMap(({ message }) => endpointOwners(message, platformOf(message.merchantId))))];
    if (this.kept.size > KEPT_OWNERS) this.kept.clear();
    const missing = owners.filter((owner) => !this.kept.has(owner));
    if (missing.length > 0) {
      // The view as it stands once it includes the batch: an endpoint created, changed or deleted before one of its events is seen so.
      await this.reads.reach(messages[messages.length - 1].event.position, 'callback-dispatcher');
      const read = await webhookEndpointsOf(this.db, missing);
      for (const owner of missing) this.kept.set(owner, []);
      for (const stored of read) this.kept.get(stored.endpoint.merchantId)?.push(stored);
    }
    const endpoints = owners.flatMap((owner) => this.kept.get(owner) ?? []);
    return messages.map((addressed) =>
      endpoints.filter((stored) => receives(stored, addressed, platformOf)).map(({ endpoint }) => endpointCallback(addressed.message, addressed.event.id, endpoint)),
    );
  }
}
