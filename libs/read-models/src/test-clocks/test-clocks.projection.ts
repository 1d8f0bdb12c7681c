import { fold, streamKind, testClockDecider, type TestClock, type TestClockEvent } from '@app/domain';
import { foldedView } from '../projector/folded-view.projection';

/**
 * Each test clock's time, as its stream says it (the time it advances to while it advances; a deleted
 * clock keeps the time it stood at, as the `Clocks` resolver reads it): what the audit console's alerts
 * judge an attached object's age by (docs/concepts/time.md). Only the projector writes it.
 */
export const testClocksView = foldedView<TestClock | undefined>({
  name: 'test_clocks_view',
  version: 1,
  table: 'test_clocks_view',
  key: 'test_clock_id',
  columns: ['test_clock_id', 'frozen_time', 'created_at', 'updated_at', 'revision'],
  streams: (streamId) => streamKind(streamId) === 'testClock',
  fold: (_streamId, history) => fold(testClockDecider, history as unknown as TestClockEvent[]).clock,
  row: (_streamId, clock) => clock && { test_clock_id: clock.testClockId, frozen_time: clock.frozenTime },
});
