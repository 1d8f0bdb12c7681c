import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { ProviderNotification } from '../../payment-provider.port';
import type { PayableSummary } from '@app/domain';

/** What a provider's report came to. */
export interface AppliedNotification {
  /** The payable after it. */
  summary: PayableSummary;
  /** When the events it recorded were (the payable's last change); absent when it changed nothing (a report applied before). */
  recordedAt?: Date;
}

export class ApplyNotificationCommand extends Command<AppliedNotification> {
  constructor(
    readonly provider: string,
    readonly notification: ProviderNotification,
    /** Who reports it: the provider itself (a notification) unless a reconciler learnt it by asking. */
    readonly metadata: EventMetadata = { correlationId: notification.id, causationId: notification.id, actor: { type: 'provider', id: provider } },
  ) {
    super();
  }
}
