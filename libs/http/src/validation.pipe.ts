import { BadRequestException, type HttpException, type PipeTransform, type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { defaultMetadataStorage as transformerMetadata } from 'class-transformer/cjs/storage';
import { ApiPropertyOptional } from '@nestjs/swagger';
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
  'isSingleLineText',
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

const declaredFields = new Map<Dto, ReadonlySet<string>>();

/** The properties a class (its parents' included) declares with validation rules. */
export function fieldsOf(type: Dto): ReadonlySet<string> {
  let fields = declaredFields.get(type);
  if (!fields) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(type, undefined as unknown as string, false, false);
    fields = new Set(metadatas.map((metadata) => metadata.propertyName));
    declaredFields.set(type, fields);
  }
  return fields;
}

/** The class a nested property of `type` is built as (its @Type), if it has one. */
function nestedTypeOf(type: Dto, property: string): Dto | undefined {
  const nested: unknown = transformerMetadata.findTypeMetadata(type, property)?.typeFunction();
  return typeof nested === 'function' ? (nested as Dto) : undefined;
}

const ignoredFields = new Map<object, Set<string>>();

/**
 * A field the spec lists that this body accepts and drops unread: `api_secret`, which the spec's create
 * bodies name though the secret travels in the `x-api-secret` header. It is removed before validation,
 * so it never reaches the command, its fingerprint, an event or an answer (and logs redact it). It is
 * no property of the class (an instance would carry it), only of the OpenAPI document.
 */
export function AcceptsAndIgnores(field: string, description: string): ClassDecorator {
  return (target) => {
    const fields = ignoredFields.get(target) ?? new Set<string>();
    fields.add(field);
    ignoredFields.set(target, fields);
    ApiPropertyOptional({ type: String, deprecated: true, description })(target.prototype as object, field);
  };
}

const ignoredByClass = new Map<Dto, readonly string[]>();

/** The ignored fields of a class, its parents' included (the create bodies inherit them from PaymentRequestDto); found once per class, as the decorators have all run by the first request. */
function ignoredOf(type: Dto): readonly string[] {
  let found = ignoredByClass.get(type);
  if (!found) {
    const fields: string[] = [];
    for (let proto: unknown = type; typeof proto === 'function' && proto !== Function.prototype; proto = Object.getPrototypeOf(proto)) {
      fields.push(...(ignoredFields.get(proto) ?? []));
    }
    found = fields;
    ignoredByClass.set(type, found);
  }
  return found;
}

function withoutIgnored(type: Dto, body: Record<string, unknown>): Record<string, unknown> {
  const ignored = ignoredOf(type).filter((field) => Object.hasOwn(body, field));
  if (ignored.length === 0) return body;
  const kept = { ...body };
  for (const field of ignored) delete kept[field];
  return kept;
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
 * `callbackUrl (did you mean callbackURL?)`: an unknown field that is almost one its object declares
 * (`customerPhone` for `customerPhoneNumber`, `allocations[0].merchant_id` for `merchantId`), so the
 * refusal says what was meant; any other unknown field is named as it was sent.
 */
function withHint(type: Dto, path: string): string {
  const segments = path.split('.').map((segment) => segment.replace(/\[\d+\]$/, ''));
  let owner: Dto | undefined = type;
  for (const segment of segments.slice(0, -1)) owner = owner && nestedTypeOf(owner, segment);
  if (!owner) return path;
  const key = segments.at(-1)!;
  const declared = fieldsOf(owner);
  const meant = [...declared].find((field) => normalised(field) === normalised(key)) ?? MEANT[normalised(key)];
  return meant !== undefined && declared.has(meant) ? `${path} (did you mean ${meant}?)` : path;
}

/** The codes of the rules that refused (none for a rule without one), nested properties included. */
function ruleCodes(errors: ValidationError[]): (string | undefined)[] {
  return errors.flatMap((error) => [
    ...Object.keys(error.constraints ?? {}).map((rule) => error.contexts?.[rule]?.[RULE_CODE] as string | undefined),
    ...ruleCodes(error.children ?? []),
  ]);
}

/** A body refused only by rules of one code (an impossible date, a name with hidden characters) is answered with it. */
export function refusal(errors: ValidationError[]): HttpException {
  const message = flatten(errors).join('; ') || 'The request is invalid';
  const codes = new Set(ruleCodes(errors));
  const [code] = codes;
  return codes.size === 1 && code !== undefined ? new ApiError(400, code, message) : new BadRequestException(message);
}

/** 400 UNKNOWN_FIELD naming each field (as paths: `allocations[0].fee`). */
export function refuseUnknown(unknown: readonly string[]): ApiError {
  return new ApiError(400, 'UNKNOWN_FIELD', `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
}

/** The fields of a body that a route reading it by hand (a form, the checkout's Pay) does not declare: 400 UNKNOWN_FIELD. */
export function refuseUndeclared(body: unknown, declared: readonly string[]): void {
  if (body === undefined || body === null || typeof body !== 'object') return;
  const unknown = Object.keys(body).filter((key) => !declared.includes(key));
  if (unknown.length > 0) throw refuseUnknown(unknown);
}

/** Unknown paths found by the full pipe, before the pipe, which knows the body's class, adds the hints. */
class UnknownFields extends Error {
  constructor(readonly paths: string[]) {
    super('unknown fields');
  }
}

/**
 * class-transformer and class-validator as NestJS runs them: in a body, a field the DTO (or a nested
 * one) does not declare is refused (closed bodies, as Stripe refuses any parameter it does not know: a
 * misspelt or not yet supported field, `amout` or `fee`, must not silently become another command);
 * elsewhere (a query) it is dropped. Nothing is coerced, and every other problem is reported at once.
 */
export function fullValidationPipe(options: { closed?: boolean } = { closed: true }): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: options.closed ?? false,
    transform: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    // Values are read to tell a missing field from a wrong one; they are never echoed back.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const unknown = unknownFields(errors);
      if (unknown.length > 0) return new UnknownFields(unknown);
      return refusal(errors);
    },
  });
}

/** Validates bodies against their DTO (see fullValidationPipe); every body is closed. */
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = fullValidationPipe();
  private readonly lenient = fullValidationPipe({ closed: false });

  /** Valid bodies take the plan, which builds the same DTO at a fraction of the cost; the rest the full pipe. */
  private readonly plans = new ValidationPlans();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return this.lenient.transform(value, metadata);
    // A body typed `unknown` is read by its route: a console form through its shape (apps/web/src/kit/form.ts), the checkout's Pay with refuseUndeclared.
    if (!metadata.metatype || metadata.metatype === Object) return value;
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BadRequestException('The request body must be a JSON object');
    }
    const type = metadata.metatype as Dto;
    const body = withoutIgnored(type, value as Record<string, unknown>);
    const accepted = this.plans.accept(type, body);
    if (accepted !== undefined) return accepted;
    try {
      return await this.inner.transform(body, metadata);
    } catch (error) {
      if (error instanceof UnknownFields) throw refuseUnknown(error.paths.map((path) => withHint(type, path)));
      throw error;
    }
  }
}
