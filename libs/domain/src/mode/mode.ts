/**
 * Test or live (docs/concepts/modes.md): a property of a tenant, so of everything it owns. Test money
 * moves only through the sandbox; live money only through the provider the deployment configures.
 */
export type Mode = 'test' | 'live';

export const MODES: readonly Mode[] = ['test', 'live'];

export const otherMode = (mode: Mode): Mode => (mode === 'test' ? 'live' : 'test');

export const isLive = (mode: Mode): boolean => mode === 'live';
