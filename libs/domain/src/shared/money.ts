import { InvalidInput } from './domain-error';

/** An amount of Ethiopian birr in santim (1 ETB = 100 santim): always a non-negative safe integer. */
export type Santim = number & { readonly __unit: 'santim' };

export const CURRENCY = 'ETB';
/** One billion birr: far above any single checkout, far below Number.MAX_SAFE_INTEGER santim. */
export const MAX_SANTIM = 100_000_000_000 as Santim;
export const ZERO = 0 as Santim;

export function santim(value: number): Santim {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_SANTIM) {
    throw new RangeError(`not a santim amount: ${value}`);
  }
  return value as Santim;
}

const DECIMAL = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/**
 * Reads a JSON number of birr into santim without float arithmetic: the shortest decimal text of
 * a double is exactly what the client wrote (12.34 stays "12.34"), so the digits are split there.
 */
export function parseEtb(value: unknown, field: string, options: { allowZero?: boolean } = {}): Santim {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidInput(`${field} must be a finite JSON number`);
  }
  const minimum = options.allowZero ? 0 : 0.01;
  if (value < minimum || value > MAX_SANTIM / 100) {
    throw new InvalidInput(`${field} must be between ${minimum} and ${formatEtb(MAX_SANTIM)}`);
  }
  const match = DECIMAL.exec(String(value));
  if (!match) {
    throw new InvalidInput(`${field} must have at most 2 decimal places`);
  }
  return (Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))) as Santim;
}

/** The decimal text of an amount, e.g. 123456 → "1234.56". */
export function formatEtb(amount: Santim): string {
  const whole = Math.trunc(amount / 100);
  const cents = amount % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
}

/** Always two decimals, as settlement files and reports write birr: 123400 → "1234.00". */
export function formatEtbFixed(amount: Santim): string {
  const text = formatEtb(amount);
  return text.includes('.') ? text : `${text}.00`;
}

/** The JSON number a client sent for this amount (parsed back from its decimal text). */
export function toEtbNumber(amount: Santim): number {
  return Number(formatEtb(amount));
}

export function addSantim(a: Santim, b: Santim): Santim {
  return santim(a + b);
}

export function subtractSantim(a: Santim, b: Santim): Santim {
  if (b > a) throw new RangeError(`cannot subtract ${b} from ${a} santim`);
  return (a - b) as Santim;
}

export function sumSantim(amounts: readonly Santim[]): Santim {
  return amounts.reduce<Santim>((total, amount) => addSantim(total, amount), ZERO);
}
