import type { OperationExamples } from '@app/http';

/** A test clock (docs/guides/test-clocks.md): created on a Tuesday, advanced ten days to a Friday. */
const CLOCK = { testClockId: 'clock_5f1c0a9e2b7d4c8e9a0b1c2d', name: 'Friday payouts', frozenTime: '2030-01-01T09:00:00.000Z', status: 'ready', createdAt: '2026-11-29T07:12:40.118Z' };

export const TEST_CLOCK_EXAMPLES: OperationExamples = {
  'POST /v1/trdp/test-clocks': { request: { frozenTime: '2030-01-01T12:00:00+03:00', name: 'Friday payouts' }, data: CLOCK },
  'GET /v1/trdp/test-clocks/{testClockId}': { data: CLOCK },
  'POST /v1/trdp/test-clocks/{testClockId}/advance': { request: { frozenTime: '2030-01-11T12:00:00+03:00' }, data: { ...CLOCK, frozenTime: '2030-01-11T09:00:00.000Z' } },
  'DELETE /v1/trdp/test-clocks/{testClockId}': { data: { testClockId: CLOCK.testClockId, deleted: true } },
};
