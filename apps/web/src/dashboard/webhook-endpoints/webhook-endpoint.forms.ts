import { PickType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { SUBSCRIBABLE } from '@app/callbacks';
import { CreateWebhookEndpointDto } from '@app/contract';
import { Checkbox } from '../../kit/form';
import { eventField } from './webhook-endpoints.pages';

/** The add form (kit/form.ts readForm): the URL and description as the API declares them, and a checkbox per event type. */
export class WebhookEndpointForm extends PickType(CreateWebhookEndpointDto, ['url', 'description'] as const) {
  /** The types whose checkboxes were ticked. */
  static events(form: WebhookEndpointForm): string[] {
    return SUBSCRIBABLE.filter((type) => (form as unknown as Record<string, unknown>)[eventField(type)] === 'on');
  }
}
for (const type of SUBSCRIBABLE) Checkbox()(WebhookEndpointForm.prototype, eventField(type));

/** Disable (`yes`) or enable (`no`) an endpoint. */
export class EndpointDisabledForm {
  @IsIn(['yes', 'no'])
  disabled!: 'yes' | 'no';
}
