import { Transform } from 'class-transformer';
import { PayoutDestinationDto } from '@app/contract';

/** The destination form (kit/form.ts readForm): the API's body, with the account number as people copy it. */
export class PayoutDestinationForm extends PayoutDestinationDto {}

// People copy numbers with spaces between the groups of digits.
Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.replace(/\s+/g, '') : value))(PayoutDestinationForm.prototype, 'accountNumber');
