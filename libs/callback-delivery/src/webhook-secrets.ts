import { comparePositions, type LogPosition, type RecordedEvent } from '@app/event-store';
import type { CredentialStore } from '@app/credentials';

/** Past this age a secret is read again, whatever the log said: bounds staleness should a rotation's event never come. */
export const WEBHOOK_SECRET_MAX_AGE_MS = 30_000;

interface Entry {
  secret: string;
  readAt: number;
}

/** Who signs a delivery: the merchant or seller account (its order's, payout settings' or account's URL), or one of its webhook endpoints. */
export type Signer = { merchantId: string; endpointId?: string };

const keyOf = (signer: Signer) => (signer.endpointId === undefined ? `merchant:${signer.merchantId}` : `endpoint:${signer.endpointId}`);

/** The events after which a signer's secret is another (or none): its entry is dropped. */
function invalidated(event: RecordedEvent): string | undefined {
  const data = event.data as { merchantId: string; endpointId: string; accountId: string };
  if (event.type === 'MerchantWebhookSecretRotated') return keyOf({ merchantId: data.merchantId });
  if (event.type === 'AccountWebhookSecretRotated') return keyOf({ merchantId: data.accountId });
  if (event.type === 'WebhookEndpointSecretRotated' || event.type === 'WebhookEndpointDeleted') return keyOf(data);
  return undefined;
}

/**
 * Merchants' and their webhook endpoints' signing secrets, decrypted once and kept in this process. "Callbacks signed from now on
 * use the new secret" holds by this rule:
 *
 * - A rotation updates the sealed secret, then appends MerchantWebhookSecretRotated (an account's,
 *   AccountWebhookSecretRotated; an endpoint's, WebhookEndpointSecretRotated). This process's log follower hands every batch here before
 *   dispatching it, which drops the signer's entry.
 * - A first attempt names its source event's log position. A cached secret signs it only once the
 *   follower has passed that position, so every rotation answered before that event was appended
 *   has been seen; otherwise the secret is read. A callback caused after a rotation is therefore
 *   signed with the new secret by whichever process sends it.
 * - A job that names no position reads the secret: retries, which may run long after a rotation,
 *   and jobs the reconciler queues from the read model.
 * - A read that overlapped an invalidation is used but not kept: it may predate the rotation.
 * - Reads of one signer's secret made at once (a batch of first attempts at a cold start) share the
 *   read in flight, under the rule a cached secret follows: only for a job the follower has passed,
 *   and only if no invalidation came since the read began, which then began after any rotation
 *   that job must see.
 *
 * What is left: a first attempt of an event appended before a rotation, sent after it, before this
 * process's follower reaches the rotation's event (normally milliseconds), is signed with the old
 * secret; an entry older than WEBHOOK_SECRET_MAX_AGE_MS is read again, which bounds that window should
 * the rotation's event be late or lost (a crash between the update and the append).
 */
export class WebhookSecrets {
  private readonly entries = new Map<string, Entry>();
  private readonly reading = new Map<string, { secret: Promise<string | undefined>; invalidations: number }>();
  private invalidations = 0;
  private followed?: LogPosition;

  constructor(
    private readonly credentials: Pick<CredentialStore, 'webhookSecret' | 'accountWebhookSecret' | 'endpointSecret'>,
    private readonly maxAgeMs = WEBHOOK_SECRET_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with each batch of the log, in order, before anything in it is dispatched. */
  follow(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      const key = invalidated(event);
      if (key === undefined) continue;
      this.entries.delete(key);
      this.invalidations += 1;
    }
    if (events.length > 0) this.followed = events[events.length - 1].position;
  }

  /** Undefined for a merchant without one, or an endpoint deleted since. */
  async secretFor(signer: Signer, after: LogPosition | undefined): Promise<string | undefined> {
    const key = keyOf(signer);
    const passed = after !== undefined && this.followed !== undefined && comparePositions(this.followed, after) >= 0;
    const entry = this.entries.get(key);
    if (entry && passed && this.now() - entry.readAt < this.maxAgeMs) return entry.secret;
    const inFlight = this.reading.get(key);
    if (inFlight && passed && inFlight.invalidations === this.invalidations) return inFlight.secret;
    const reading = { secret: this.read(signer), invalidations: this.invalidations };
    const readAt = this.now();
    this.reading.set(key, reading);
    try {
      const secret = await reading.secret;
      if (secret !== undefined && reading.invalidations === this.invalidations) this.entries.set(key, { secret, readAt });
      return secret;
    } finally {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    }
  }

  private async read(signer: Signer): Promise<string | undefined> {
    if (signer.endpointId !== undefined) return this.credentials.endpointSecret(signer.endpointId);
    // A merchant's secret, else a seller account's: the credential store knows which the signer is.
    return (await this.credentials.webhookSecret(signer.merchantId)) ?? this.credentials.accountWebhookSecret(signer.merchantId);
  }
}
