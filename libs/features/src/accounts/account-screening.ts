import { type Mode, sandboxScreening, type Screening } from '@app/domain';

/**
 * The sandbox's decision on its test values, for test mode's accounts only; none for live ones, which
 * staff review (docs/concepts/modes.md): a test TIN never verifies a seller who may be paid real money.
 */
export const screeningFor = (mode: Mode | undefined, tin: string | undefined): Screening | undefined => (mode === 'test' ? sandboxScreening(tin) : undefined);
