import { comparePositions, type LogPosition, type RecordedEvent } from '@app/event-store';
import type { CredentialStore } from '@app/credentials';

/** Past this age a secret is read again, whatever the log said: bounds staleness should a rotation's event never come. */
export const WEBHOOK_SECRET_MAX_AGE_MS = 30_000;

interface Entry {
  secret: string;
  readAt: number;
}

/**
 * Merchants' webhook secrets, decrypted once and kept in this process. "Callbacks signed from now on
 * use the new secret" holds by this rule:
 *
 * - A rotation updates the sealed secret, then appends MerchantWebhookSecretRotated. This process's
 *   log follower hands every batch here before dispatching it, which drops the merchant's entry.
 * - A first attempt names its source event's log position. A cached secret signs it only once the
 *   follower has passed that position, so every rotation answered before that event was appended
 *   has been seen; otherwise the secret is read. A callback caused after a rotation is therefore
 *   signed with the new secret by whichever process sends it.
 * - A job that names no position reads the secret: retries, which may run long after a rotation,
 *   and jobs the reconciler queues from the read model.
 * - A read that overlapped an invalidation is used but not kept: it may predate the rotation.
 *
 * What is left: a first attempt of an event appended before a rotation, sent after it, before this
 * process's follower reaches the rotation's event (normally milliseconds), is signed with the old
 * secret; an entry older than WEBHOOK_SECRET_MAX_AGE_MS is read again, which bounds that window should
 * the rotation's event be late or lost (a crash between the update and the append).
 */
export class WebhookSecrets {
  private readonly entries = new Map<string, Entry>();
  private invalidations = 0;
  private followed?: LogPosition;

  constructor(
    private readonly credentials: Pick<CredentialStore, 'webhookSecret'>,
    private readonly maxAgeMs = WEBHOOK_SECRET_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with each batch of the log, in order, before anything in it is dispatched. */
  follow(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (event.type !== 'MerchantWebhookSecretRotated') continue;
      this.entries.delete((event.data as { merchantId: string }).merchantId);
      this.invalidations += 1;
    }
    if (events.length > 0) this.followed = events[events.length - 1].position;
  }

  async secretFor(merchantId: string, after: LogPosition | undefined): Promise<string | undefined> {
    const entry = this.entries.get(merchantId);
    if (entry && this.now() - entry.readAt < this.maxAgeMs && after && this.followed && comparePositions(this.followed, after) >= 0) return entry.secret;
    const invalidations = this.invalidations;
    const readAt = this.now();
    const secret = await this.credentials.webhookSecret(merchantId);
    if (secret !== undefined && invalidations === this.invalidations) this.entries.set(merchantId, { secret, readAt });
    return secret;
  }
}
