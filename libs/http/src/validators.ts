import { checkDisplayName, checkDisplayText, checkSingleLineText, INVALID_DATE_TIME, INVALID_DISPLAY_TEXT, InvalidInput, normalisePhone, parseEtb, parseInstant } from '@app/domain';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** Where a rule has a code of its own: a body refused by it alone is answered with that code (the validation pipe's refusal). */
export const RULE_CODE = 'code';

type DomainCheck = (value: unknown, property: string) => void;

/** The checks behind this module's rules, each registered as its rule's constraint so the validation plans find it (domainRuleTest). */
const domainChecks = new WeakSet<DomainCheck>();

/** A rule of this module as a test of one property's values, for the validation plans; undefined for any other rule. */
export function domainRuleTest(constraints: readonly unknown[] | undefined, property: string): ((value: unknown) => boolean) | undefined {
  const check = constraints?.[0];
  if (typeof check !== 'function' || !domainChecks.has(check as DomainCheck)) return undefined;
  return (value) => {
    try {
      (check as DomainCheck)(value, property);
      return true;
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      return false;
    }
  };
}

function fromDomainRule(name: string, check: DomainCheck, options?: ValidationOptions, code?: string) {
  domainChecks.add(check);
  return (target: object, propertyName: string) => {
    let lastMessage = '';
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      constraints: [check],
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

function displayRule(name: string, check: (value: string, property: string) => void, options?: ValidationOptions) {
  return fromDomainRule(
    name,
    (value, property) => {
      if (typeof value !== 'string') throw new InvalidInput(`${property} must be a string`);
      check(value, property);
    },
    options,
    INVALID_DISPLAY_TEXT,
  );
}

/** A description or reason shown on screens: a string, not blank, one line, with no control or format characters (checkDisplayText). */
export function IsDisplayText(options?: ValidationOptions) {
  return displayRule('isDisplayText', checkDisplayText, options);
}

/** A name shown on screens: display text with a visible letter or digit (checkDisplayName). */
export function IsDisplayName(options?: ValidationOptions) {
  return displayRule('isDisplayText', checkDisplayName, options);
}

/** A reference of the caller's (an orderId, a productId): one line, nothing hidden, blank allowed as before (checkSingleLineText). */
export function IsSingleLineText(options?: ValidationOptions) {
  return displayRule('isSingleLineText', checkSingleLineText, options);
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
