import { given } from '../testing/given';
import { type TestClockEvent, testClockDecider } from './test-clock.decider';
import { TestClockAdvancing, TestClockLiveMode, TestClockNotFound, TestClockTimeNotLater } from './test-clock.errors';

const ID = 'clock_1';
const created: TestClockEvent = { type: 'TestClockCreated', data: { testClockId: ID, merchantId: 'm-1', name: 'Friday payouts', frozenTime: '2030-01-01T09:00:00.000Z', createdAt: '2026-11-29T07:00:00.000Z' } };
const started: TestClockEvent = { type: 'TestClockAdvanceStarted', data: { testClockId: ID, from: '2030-01-01T09:00:00.000Z', frozenTime: '2030-01-11T09:00:00.000Z', startedAt: '2026-11-29T07:02:00.000Z' } };
const advance = (frozenTime: string, merchantId = 'm-1') => ({ type: 'AdvanceTestClock' as const, data: { testClockId: ID, merchantId, frozenTime, at: '2026-11-29T07:02:00.000Z' } });

describe('a test clock', () => {
  it('is created at its frozen time in test mode, and a live key makes none', () => {
    const create = { type: 'CreateTestClock' as const, data: { testClockId: ID, merchantId: 'm-1', mode: 'test' as const, name: 'Friday payouts', frozenTime: '2030-01-01T09:00:00.000Z', at: '2026-11-29T07:00:00.000Z' } };
    given(testClockDecider, []).when(create).then([created]);
    given(testClockDecider, []).when({ ...create, data: { ...create.data, mode: 'live' } }).thenThrows(TestClockLiveMode);
    given(testClockDecider, [created]).when(create).thenNothing();
  });

  it('advances to a later time only: the same time or an earlier one is refused', () => {
    given(testClockDecider, [created]).when(advance('2030-01-11T09:00:00.000Z')).then([started]);
    given(testClockDecider, [created]).when(advance('2030-01-01T09:00:00.000Z')).thenThrows(TestClockTimeNotLater);
    given(testClockDecider, [created]).when(advance('2029-12-31T09:00:00.000Z')).thenThrows(TestClockTimeNotLater);
  });

  it('is advancing until the advance is finished, and ready at its new time after', () => {
    given(testClockDecider, [created]).when(advance('2030-01-11T09:00:00.000Z')).thenState({ clock: { status: 'advancing', frozenTime: '2030-01-11T09:00:00.000Z', advancingFrom: '2030-01-01T09:00:00.000Z' } });
    const finish = { type: 'FinishTestClockAdvance' as const, data: { frozenTime: '2030-01-11T09:00:00.000Z', at: '2026-11-29T07:03:00.000Z' } };
    given(testClockDecider, [created, started]).when(finish).then([{ type: 'TestClockAdvanced', data: { testClockId: ID, frozenTime: '2030-01-11T09:00:00.000Z', finishedAt: '2026-11-29T07:03:00.000Z' } }]);
    given(testClockDecider, [created, started]).when(finish).thenState({ clock: { status: 'ready', frozenTime: '2030-01-11T09:00:00.000Z' } });
    given(testClockDecider, [created]).when(finish).thenNothing();
  });

  it('resumes an advance asked for again with the same time, and refuses another time while it advances', () => {
    given(testClockDecider, [created, started]).when(advance('2030-01-11T09:00:00.000Z')).thenNothing();
    given(testClockDecider, [created, started]).when(advance('2030-01-12T09:00:00.000Z')).thenThrows(TestClockAdvancing);
    given(testClockDecider, [created, started]).when({ type: 'DeleteTestClock', data: { testClockId: ID, merchantId: 'm-1', at: '2026-11-29T07:02:00.000Z' } }).thenThrows(TestClockAdvancing);
  });

  it('is not found by another tenant, nor once deleted', () => {
    given(testClockDecider, [created]).when(advance('2030-01-11T09:00:00.000Z', 'm-2')).thenThrows(TestClockNotFound);
    given(testClockDecider, []).when(advance('2030-01-11T09:00:00.000Z')).thenThrows(TestClockNotFound);
    const deleted: TestClockEvent = { type: 'TestClockDeleted', data: { testClockId: ID, deletedAt: '2026-11-29T07:05:00.000Z' } };
    given(testClockDecider, [created]).when({ type: 'DeleteTestClock', data: { testClockId: ID, merchantId: 'm-1', at: '2026-11-29T07:05:00.000Z' } }).then([deleted]);
    given(testClockDecider, [created, deleted]).when(advance('2030-01-11T09:00:00.000Z')).thenThrows(TestClockNotFound);
  });
});
