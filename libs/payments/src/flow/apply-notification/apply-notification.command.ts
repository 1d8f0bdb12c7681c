import { Command } from '@nestjs/cqrs';
import type { EventMetadata } from '@app/event-store';
import type { ProviderNotification } from '../../payment-provider.port';
import type { PayableSummary } from '@app/domain';

export class ApplyNotificationCommand extends Command<PayableSummary> {
  constructor(
    readonly provider: string,
    readonly notification: ProviderNotification,
    /** Who reports it: the provider itself (a notification) unless a reconciler learnt it by asking. */
    readonly metadata: EventMetadata = { correlationId: notification.id, causationId: notification.id, actor: { type: 'provider', id: provider } },
  ) {
    super();
  }
}
