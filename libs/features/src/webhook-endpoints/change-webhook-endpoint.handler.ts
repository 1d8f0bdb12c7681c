import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { refusedWebhookUrl } from '@app/callback-delivery';
import { type WebhookEndpointCommand, webhookEndpointDecider, WebhookEndpointNotFound, webhookEndpointOutline, webhookEndpointStream, WebhookUrlRefused } from '@app/callbacks';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { redirectedParty } from '@app/domain';
import { CLOCK, type Clock, CommandRunner } from '@app/infrastructure';
import { CredentialStore } from '@app/credentials';
import { webhookEndpointView } from '@app/read-models';
import { ChangeWebhookEndpointCommand, type ChangedEndpoint } from '@app/contract';

/**
 * A change to one of the merchant's endpoints. Its secret lives beside the log, as the merchant's
 * does (rotate-webhook-secret.handler.ts): a rotation seals the new secret and then records that it
 * happened; a deletion records itself and then drops the secret, which ends the endpoint's deliveries.
 */
@CommandHandler(ChangeWebhookEndpointCommand)
export class ChangeWebhookEndpointHandler implements ICommandHandler<ChangeWebhookEndpointCommand> {
  constructor(
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(CredentialStore) private readonly credentials: CredentialStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ principal, endpointId, change, metadata }: ChangeWebhookEndpointCommand): Promise<ChangedEndpoint> {
    const { id: merchantId } = redirectedParty(principal);
    const at = this.clock.now().toISOString();
    const run = async (command: WebhookEndpointCommand) => {
      const { state } = await this.runner.run(webhookEndpointStream(endpointId), webhookEndpointDecider, command, metadata);
      return webhookEndpointView(webhookEndpointOutline(state)!);
    };
    switch (change.type) {
      case 'update': {
        const refused = change.request.url === undefined ? undefined : refusedWebhookUrl(change.request.url, this.config.callbackAllowPrivateUrls);
        if (refused) throw new WebhookUrlRefused(refused);
        return { endpoint: await run({ type: 'UpdateWebhookEndpoint', data: { ...change.request, merchantId, at } }) };
      }
      case 'rotate': {
        const secret = await this.credentials.rotateEndpointSecret(merchantId, endpointId);
        if (secret === undefined) throw new WebhookEndpointNotFound(endpointId);
        return { endpoint: await run({ type: 'RotateWebhookEndpointSecret', data: { merchantId, at } }), secret };
      }
      case 'test': {
        const testId = `evt_test_${randomBytes(12).toString('hex')}`;
        return { endpoint: await run({ type: 'SendWebhookEndpointTest', data: { merchantId, testId, at } }), testId };
      }
      case 'delete': {
        const endpoint = await run({ type: 'DeleteWebhookEndpoint', data: { merchantId, at } });
        await this.credentials.dropEndpointSecret(merchantId, endpointId);
        return { endpoint };
      }
    }
  }
}
