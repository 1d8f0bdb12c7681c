import { BadRequestException, type HttpException, type PipeTransform, type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError } from './problem';
import { type Dto, ValidationPlans } from './validation-plan';
import { RULE_CODE } from './validators';

/** When a value has the wrong type, its length or range complaints are noise: report the type alone. */
const TYPE_CONSTRAINTS = [
  'isString',
  'isInt',
  'isArray',
  'isObject',
  'isEtbAmount',
  'isEthiopianPhone',
  'isUrl',
  'isEmail',
  'isInstant',
  'isNotEmpty',
  'isDisplayText',
];

function messagesFor(error: ValidationError, path: string): string[] {
  if (error.value === undefined || error.value === null) return error.constraints ? [`${path} is required`] : [];
  const constraints = error.constraints ?? {};
  const typeError = TYPE_CONSTRAINTS.find((name) => name in constraints);
  const messages = typeError ? [constraints[typeError]] : Object.values(constraints);
  return messages.map((message) =>
    message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`,
  );
}

/** `items[0]`, `customer.name`: where a nested property sits, as a client would name it. */
function childPath(parent: string, property: string): string {
  if (!parent) return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = childPath(parent, error.property);
    return [...messagesFor(error, path), ...flatten(error.children ?? [], path)];
  });
}

/** The fields a body named that its DTO (or a nested one) does not declare, as paths: `allocations[0].fee`. */
function unknownFields(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = childPath(parent, error.property);
    return [...(error.constraints?.whitelistValidation ? [path] : []), ...unknownFields(error.children ?? [], path)];
  });
}

const strictBodies = new WeakSet<object>();

/**
 * A body of this DTO with a field it does not declare is refused (400 UNKNOWN_FIELD) rather than
 * stripped: on a money command a misspelt or not yet supported field (`amout`, `fee`) must not
 * silently become a different command, such as releasing the whole allocation.
 */
export function RefuseUnknownFields(): ClassDecorator {
  return (target) => void strictBodies.add(target);
}

const strictProperties = new Map<object, Map<string, () => Dto>>();
const declaredFields = new Map<Dto, ReadonlySet<string>>();

/**
 * The objects of this property (one, or each of an array) refuse a field their DTO does not declare
 * (400 UNKNOWN_FIELD) while the body around them keeps dropping unknown fields: the fields a money
 * flow adds to create (an allocation's `fee`) must not be lost to a typo, and the seed's create
 * bodies still carry `api_secret`.
 */
export function RefuseUnknownFieldsIn(nested: () => Dto): PropertyDecorator {
  return (target, property) => {
    const properties = strictProperties.get(target.constructor) ?? new Map<string, () => Dto>();
    properties.set(String(property), nested);
    strictProperties.set(target.constructor, properties);
  };
}

function fieldsOf(type: Dto): ReadonlySet<string> {
  let fields = declaredFields.get(type);
  if (!fields) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(type, undefined as unknown as string, false, false);
    fields = new Set(metadatas.map((metadata) => metadata.propertyName));
    declaredFields.set(type, fields);
  }
  return fields;
}

/** `allocations[1].fees`: the fields of strict properties (RefuseUnknownFieldsIn) their DTO does not declare. */
function unknownNestedFields(type: object, body: Record<string, unknown>): string[] {
  const properties = strictProperties.get(type);
  if (!properties) return [];
  return [...properties].flatMap(([property, nested]) => {
    const value = body[property];
    const objects = Array.isArray(value) ? value.map((item, i) => [`${property}[${i}]`, item] as const) : [[property, value] as const];
    return objects.flatMap(([path, item]) =>
      item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.keys(item).filter((key) => !fieldsOf(nested()).has(key)).map((key) => `${path}.${key}`) : [],
    );
  });
}

/** Names merchants reach for that are not ours, with the field they meant (case and `_`/`-` variants are caught without a list). */
const MEANT: Readonly<Record<string, string>> = {
  customerphone: 'customerPhoneNumber',
  phone: 'customerPhoneNumber',
  phonenumber: 'customerPhoneNumber',
  expiresat: 'expiredAt',
  expiryat: 'expiredAt',
  expiry: 'expiredAt',
  webhookurl: 'callbackURL',
  notifyurl: 'callbackURL',
  returnurl: 'redirectUrl',
};

const normalised = (field: string) => field.toLowerCase().replace(/[_-]/g, '');

/**
 * Fields of a lenient body that are almost one of its DTO's: `callbackUrl` for `callbackURL`,
 * `customerPhone` for `customerPhoneNumber`. Dropped like any unknown field, they would silently
 * cost the merchant its callbacks or its expiry; refused, the message says what was meant.
 */
function nearMisses(type: Dto, body: Record<string, unknown>): string[] {
  const declared = fieldsOf(type);
  const byForm = new Map([...declared].map((field) => [normalised(field), field]));
  return Object.keys(body)
    .filter((key) => !declared.has(key))
    .flatMap((key) => {
      const meant = byForm.get(normalised(key)) ?? MEANT[normalised(key)];
      return meant !== undefined && declared.has(meant) ? [`${key} (did you mean ${meant}?)`] : [];
    });
}

/** The codes of the rules that refused (none for a rule without one), nested properties included. */
function ruleCodes(errors: ValidationError[]): (string | undefined)[] {
  return errors.flatMap((error) => [
    ...Object.keys(error.constraints ?? {}).map((rule) => error.contexts?.[rule]?.[RULE_CODE] as string | undefined),
    ...ruleCodes(error.children ?? []),
  ]);
}

/** A body refused only by rules of one code (an impossible date, a name with hidden characters) is answered with it. */
function refusal(errors: ValidationError[]): HttpException {
  const message = flatten(errors).join('; ') || 'The request is invalid';
  const codes = new Set(ruleCodes(errors));
  const [code] = codes;
  return codes.size === 1 && code !== undefined ? new ApiError(400, code, message) : new BadRequestException(message);
}

function refuseUnknown(unknown: string[]): ApiError {
  return new ApiError(400, 'UNKNOWN_FIELD', `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
}

/**
 * class-transformer and class-validator as NestJS runs them: unknown fields are stripped (so
 * `api_secret` is dropped unseen), nothing is coerced, and every problem is reported at once in one message.
 */
export function fullValidationPipe(options: { refuseUnknownFields?: boolean } = {}): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: options.refuseUnknownFields ?? false,
    transform: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    // Values are read to tell a missing field from a wrong one; they are never echoed back.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const unknown = unknownFields(errors);
      if (unknown.length > 0) return refuseUnknown(unknown);
      return refusal(errors);
    },
  });
}

/** Validates bodies against their DTO (see fullValidationPipe). */
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = fullValidationPipe();
  private readonly strict = fullValidationPipe({ refuseUnknownFields: true });

  /** Valid bodies take the plan, which builds the same DTO at a fraction of the cost; the rest the full pipe. */
  private readonly plans = new ValidationPlans();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new BadRequestException('The request body must be a JSON object');
      }
      if (strictBodies.has(metadata.metatype)) return this.strict.transform(value, metadata);
      const unknown = [...nearMisses(metadata.metatype as Dto, value as Record<string, unknown>), ...unknownNestedFields(metadata.metatype, value as Record<string, unknown>)];
      if (unknown.length > 0) throw refuseUnknown(unknown);
      const accepted = this.plans.accept(metadata.metatype as Dto, value);
      if (accepted !== undefined) return accepted;
    }
    return this.inner.transform(value, metadata);
  }
}
