import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { UpdateAccountDto, PayoutDestinationDto } from '@app/contract';
import type { OnboardingForm } from './onboarding.form';

/** The page's fields, in the order the page shows them, with their labels. */
export const FIELD_LABELS = {
  name: 'Legal name',
  tin: 'TIN',
  tradeLicenceNumber: 'Trade licence number',
  email: 'E-mail',
  phone: 'Phone',
  kind: 'Kind',
  institution: 'Bank code or wallet',
  accountNumber: 'Account or wallet number',
  holderName: 'Name on the account',
} as const;

export type OnboardingField = keyof typeof FIELD_LABELS;

/** The document form's fields, apart from the details' form. */
export const DOCUMENT_FIELD_LABELS = { documentKind: 'Document', documentFile: 'File' } as const;

export type DocumentField = keyof typeof DOCUMENT_FIELD_LABELS;

/** A refusal, of one field, or of the whole form (what a command refused after the fields passed). */
export interface FieldError {
  field?: OnboardingField | DocumentField;
  message: string;
}

/** What the seller's form asks: the account's details to change, and a destination to set (none: keep the one on file). */
export interface OnboardingSubmission {
  details: UpdateAccountDto;
  destination?: PayoutDestinationDto;
}

const DETAILS = ['tin', 'tradeLicenceNumber', 'email', 'phone'] as const;
const DESTINATION = ['institution', 'accountNumber', 'holderName'] as const;

const text = (value: string | undefined) => value?.trim() ?? '';

/** A rule's message in the page's words: `tin must be 10 digits` becomes `TIN must be 10 digits`. */
function fieldErrors(errors: ValidationError[]): Array<{ field: OnboardingField; message: string }> {
  return errors.map((error) => {
    const field = error.property as OnboardingField;
    const [message = 'is not valid'] = Object.values(error.constraints ?? {});
    return { field, message: message.startsWith(field) ? `${FIELD_LABELS[field]}${message.slice(field.length)}` : `${FIELD_LABELS[field]}: ${message}` };
  });
}

function validated<T extends object>(type: new () => T, plain: Record<string, unknown>): { value: T; errors: Array<{ field: OnboardingField; message: string }> } {
  const value = plainToInstance(type, plain, { enableImplicitConversion: false });
  return { value, errors: fieldErrors(validateSync(value, { forbidUnknownValues: true, validationError: { target: false, value: true } })) };
}

/**
 * The form read under the API's own rules (UpdateAccountDto, PayoutDestinationDto), each refusal
 * named by its field. A field left empty is left out (kit/form.ts), so the detail stays as it is; the
 * destination's fields all left empty keep the destination on file, when there is one.
 */
export function readSubmission(form: OnboardingForm, hasDestination: boolean): { submission?: OnboardingSubmission; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const name = text(form.name);
  const details: Record<string, unknown> = { name: name || undefined };
  if (!name) errors.push({ field: 'name', message: 'Enter the legal name: the name the seller is registered under' });
  for (const field of DETAILS) if (text(form[field])) details[field] = text(form[field]);
  const checkedDetails = validated(UpdateAccountDto, details);
  errors.push(...checkedDetails.errors);

  const entered = DESTINATION.some((field) => text(form[field]) !== '');
  let destination: PayoutDestinationDto | undefined;
  if (entered || !hasDestination) {
    const plain = {
      kind: text(form.kind) || undefined,
      institution: text(form.institution) || undefined,
      accountNumber: text(form.accountNumber).replace(/\s+/g, '') || undefined,
      holderName: text(form.holderName) || undefined,
    };
    const checked = validated(PayoutDestinationDto, plain);
    errors.push(...checked.errors.map(({ field, message }) => ({ field, message: plain[field as keyof typeof plain] === undefined ? `Enter the ${FIELD_LABELS[field].toLowerCase()}` : message })));
    destination = checked.value;
  }
  const order = Object.keys(FIELD_LABELS);
  errors.sort((a, b) => order.indexOf(a.field!) - order.indexOf(b.field!));
  return errors.length > 0 ? { errors } : { submission: { details: checkedDetails.value, ...(destination ? { destination } : {}) }, errors };
}
