import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { refusedWebhookUrl } from '@app/callback-delivery';
import { subscription, webhookEndpointDecider, webhookEndpointOutline, webhookEndpointStream, WebhookUrlRefused } from '@app/callbacks';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { fingerprint, newWebhookEndpointId, redirectedParty, webhookEndpointIdFor } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { CredentialStore } from '@app/credentials';
import { webhookEndpointView, type WebhookEndpointView } from '@app/read-models';
import { CreateWebhookEndpointCommand } from '@app/contract';

/**
 * A new endpoint: its input checked first, so a refused one keeps no secret; then its secret sealed
 * (a credential, never in the log), then its creation recorded.
 */
@CommandHandler(CreateWebhookEndpointCommand)
export class CreateWebhookEndpointHandler implements ICommandHandler<CreateWebhookEndpointCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, request, metadata, keyed }: CreateWebhookEndpointCommand): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
    const { id: merchantId } = redirectedParty(principal);
    const refused = refusedWebhookUrl(request.url, this.config.callbackAllowPrivateUrls);
    if (refused) throw new WebhookUrlRefused(refused);
    const events = subscription(request.events);
    const endpointId = keyed ? webhookEndpointIdFor(keyed.idSalt, keyed.idempotencyKey, fingerprint(request)) : newWebhookEndpointId();
    const secret = await this.credentials.issueEndpointSecret(merchantId, endpointId);
    const { state } = await this.runner.run(
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      { type: 'CreateWebhookEndpoint', data: { endpointId, merchantId, url: request.url, events, description: request.description ?? null, at: this.clock.now().toISOString() } },
      metadata,
    );
    return { endpoint: webhookEndpointView(webhookEndpointOutline(state)!), secret };
  }
}
