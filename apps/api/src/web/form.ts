import { InvalidInput } from '@app/domain';

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
