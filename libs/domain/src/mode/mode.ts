import { InvalidInput } from '../shared/domain-error';

/**
 * Test or live (docs/concepts/modes.md): a property of a tenant, so of everything it owns. Test money
 * moves only through the sandbox; live money only through the provider the deployment configures.
 */
export type Mode = 'test' | 'live';

export const MODES: readonly Mode[] = ['test', 'live'];

export const otherMode = (mode: Mode): Mode => (mode === 'test' ? 'live' : 'test');

export const isLive = (mode: Mode): boolean => mode === 'live';

/**
 * The books of one mode at a time: the audit API's trial balance and balances take `mode` (test or
 * live) and never add the two (docs/concepts/modes.md); a `mode` left out, or neither, is refused with this code.
 */
export const INVALID_MODE = 'INVALID_MODE';

export function parseMode(value: unknown, field = 'mode'): Mode {
  if (value === 'test' || value === 'live') return value;
  throw new InvalidInput(`${field} must be test or live: each mode's books are read apart, never added together`, INVALID_MODE);
}
