import { InvalidInput, normalisePhone, parseEtb } from '@app/domain';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

function fromDomainRule(name: string, check: (value: unknown, property: string) => void, options?: ValidationOptions) {
  return (target: object, propertyName: string) => {
    let lastMessage = '';
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options,
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

/** Bounds free-form objects by their serialised size (DESIGN §3: metadata <= 8 KiB). */
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
