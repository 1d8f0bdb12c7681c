import { checkDisplayText, INVALID_DATE_TIME, INVALID_DISPLAY_TEXT, InvalidInput, normalisePhone, parseEtb, parseInstant } from '@app/domain';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Where a rule has a code of its own: a body refused by it alone is answered with that code (the validation pipe's refusal). */
export const RULE_CODE = 'code';

function fromDomainRule(name: string, check: (value: unknown, property: string) => void, options?: ValidationOptions, code?: string) {
  return (target: object, propertyName: string) => {
    let lastMessage = '';
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: code === undefined ? options : { ...options, context: { [RULE_CODE]: code } },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          try {
            check(value, args.property);
            return true;
          } catch (error) {
            if (!(error instanceof InvalidInput)) throw error;
            lastMessage = error.message;
            return false;
          }
        },
        defaultMessage: (args?: ValidationArguments) => lastMessage || `${args?.property ?? 'value'} is invalid`,
      },
    });
  };
}

/** A JSON number of birr with at most two decimals (the same rule the domain applies). */
export function IsEtbAmount(settings: { allowZero?: boolean } = {}, options?: ValidationOptions) {
  return fromDomainRule('isEtbAmount', (value, property) => parseEtb(value, property, settings), options);
}

export function IsEthiopianPhone(options?: ValidationOptions) {
  return fromDomainRule(
    'isEthiopianPhone',
    (value, property) => {
      if (typeof value !== 'string') throw new InvalidInput(`${property} must be a string`);
      normalisePhone(value, property);
    },
    options,
  );
}

/** An ISO 8601 date-time with its zone that exists (parseInstant: no February 30, no 24:00). */
export function IsInstant(options?: ValidationOptions) {
  return fromDomainRule('isInstant', (value, property) => parseInstant(value, property), options, INVALID_DATE_TIME);
}

/** A name or reason shown on screens: a string, not blank, with no control or format characters (checkDisplayText). */
export function IsDisplayText(options?: ValidationOptions) {
  return fromDomainRule(
    'isDisplayText',
    (value, property) => {
      if (typeof value !== 'string') throw new InvalidInput(`${property} must be a string`);
      checkDisplayText(value, property);
    },
    options,
    INVALID_DISPLAY_TEXT,
  );
}

/** Bounds free-form objects by their serialised size (docs/concepts/money-and-validation.md: metadata <= 8 KiB). */
export function MaxJsonBytes(limit: number, options?: ValidationOptions) {
  return fromDomainRule(
    'maxJsonBytes',
    (value, property) => {
      if (Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') > limit) {
        throw new InvalidInput(`${property} must be at most ${limit} bytes as JSON`);
      }
    },
    options,
  );
}
