import { applyDecorators, BadRequestException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, validateSync } from 'class-validator';
import { InvalidInput } from '@app/domain';
import { fieldsOf, refusal, refuseUnknown, CSRF_FIELD } from '@app/http';

/**
 * A console form's body (or a GET form's query) read through its one declared shape: a class with
 * class-validator rules, the API's own DTO or its fields (PickType) where the form posts what the API
 * takes, so a rule (display text, a name's visible letter, an e-mail) is written once. As the API does:
 * a field the shape does not declare is 400 UNKNOWN_FIELD naming it, and a field its rules refuse is
 * 400 with the API's message and code (INVALID_DISPLAY_TEXT), before anything runs. The CSRF token is
 * every form's, checked by CsrfGuard, never a shape's. A browser sends an empty input as '': that
 * reads as a field left out, so an optional rule applies as it does to a JSON body without the field.
 */
export function readForm<T extends object>(type: new () => T, body: unknown): T {
  const sent = body ?? {};
  if (typeof sent !== 'object' || Array.isArray(sent) || Buffer.isBuffer(sent)) throw new BadRequestException('The form could not be read');
  const entries = Object.entries(sent).filter(([name]) => name !== CSRF_FIELD);
  const declared = fieldsOf(type);
  const unknown = entries.map(([name]) => name).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw refuseUnknown(unknown);
  // A browser sends each field once, as text (a file as its bytes): nothing nested reaches class-transformer.
  const notText = entries.find(([, value]) => typeof value !== 'string' && !Buffer.isBuffer(value));
  if (notText) throw new BadRequestException(`${notText[0]} must be one text value, as a form sends it`);
  const form = plainToInstance(type, Object.fromEntries(entries.filter(([, value]) => value !== '')), { enableImplicitConversion: false });
  if (declared.size === 0) return form;
  const errors = validateSync(form, { forbidUnknownValues: true, validationError: { target: false, value: true } });
  if (errors.length > 0) throw refusal(errors);
  return form;
}

/**
 * The shape of a form with no fields of its own (Sign out), for a route that reads its request (the
 * session) and so is not one the API's undeclared-body check (libs/http/src/undeclared-body.ts) closes.
 */
export class NoFields {}

/**
 * Birr typed into a form (`100`, `100.5`), as a number; empty is none. `name` starts the message
 * (`The amount`, `The minimum`): a form says in words what the API's validation says by field.
 */
export function formBirr(text: string | undefined, name: string): number | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(value)) throw new InvalidInput(`${name} must be a number of birr with at most two decimals, such as 100.50`);
  return Number(value);
}

/** Birr as typed into a form's amount input, read with formBirr; empty is none. */
export function BirrText(): PropertyDecorator {
  return applyDecorators(IsOptional(), IsString(), MaxLength(32));
}

/** A checkbox: a browser sends `on` when it is ticked, nothing when not. */
export function Checkbox(): PropertyDecorator {
  return applyDecorators(IsOptional(), IsIn(['on']));
}

/** What a browser sent in one field, to show it again on a refused form's page; '' when it sent none or no text. */
export function sentText(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}
