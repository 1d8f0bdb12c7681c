import { InvalidInput } from '@app/domain';

const ETB_TEXT = /^\d{1,10}(\.\d{1,2})?$/;

/** Chapa writes amounts as decimal text ("100.00") or numbers; ours are JSON numbers of birr, read exactly by parseEtb. */
export function etbNumberOf(value: unknown, field: string): number {
  const decimal = typeof value === 'number' ? String(value) : value;
  if (typeof decimal !== 'string' || !ETB_TEXT.test(decimal)) throw new InvalidInput(`${field} must be an amount of birr with at most 2 decimals`);
  return Number(decimal);
}
