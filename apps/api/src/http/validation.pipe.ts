import { BadRequestException, type PipeTransform, type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { type Dto, ValidationPlans } from './validation-plan';

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
  'isIso8601',
  'isNotEmpty',
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

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    return [...messagesFor(error, path), ...flatten(error.children ?? [], path)];
  });
}

/**
 * class-transformer and class-validator as NestJS runs them: unknown fields are stripped (so
 * `api_secret` is dropped unseen), nothing is coerced, and every problem is reported at once in one message.
 */
export function fullValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    // Values are read to tell a missing field from a wrong one; they are never echoed back.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new BadRequestException(flatten(errors).join('; ') || 'The request is invalid'),
  });
}

/** Validates bodies against their DTO (see fullValidationPipe). */
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = fullValidationPipe();

  /** Valid bodies take the plan, which builds the same DTO at a fraction of the cost; the rest the full pipe. */
  private readonly plans = new ValidationPlans();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new BadRequestException('The request body must be a JSON object');
      }
      const accepted = this.plans.accept(metadata.metatype as Dto, value);
      if (accepted !== undefined) return accepted;
    }
    return this.inner.transform(value, metadata);
  }
}
