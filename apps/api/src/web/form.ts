import { InvalidInput } from '@app/domain';
import { refuseUndeclared } from '../http/validation.pipe';

/**
 * Refuses a field a form's page does not send (400 UNKNOWN_FIELD, naming it), as the API refuses an
 * undeclared field: a form that read only its own fields would act on the signed-in merchant's parties
 * while the request named another one (`merchantId=…`: test/e2e/tenant-isolation.spec.ts). `fields`
 * are the form's own; its CSRF token (web/csrf.ts) is always one.
 */
export function closedForm(body: unknown, fields: readonly string[]): void {
  refuseUndeclared(body, ['_csrf', ...fields]);
}

/** One text field of a urlencoded form body; anything else (missing, repeated, too long) reads as ''. */
export function field(body: unknown, name: string, maxLength = 1024): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value.length <= maxLength ? value : '';
}

/**
 * Birr typed into a form (`100`, `100.5`), as a number; empty is none. `name` starts the message
 * (`The amount`, `The minimum`): a form says in words what the API's validation says by field.
 */
export function formBirr(text: string, name: string): number | undefined {
  const value = text.trim();
  if (!value) return undefined;
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(value)) throw new InvalidInput(`${name} must be a number of birr with at most two decimals, such as 100.50`);
  return Number(value);
}
