import type { Decider } from '../shared/decider';
import type { Mode } from '../mode/mode';
import { TestClockAdvancing, TestClockLiveMode, TestClockNotFound, TestClockTimeNotLater } from './test-clock.errors';

/**
 * A test clock (`test-clock-{id}`, docs/concepts/time.md): a time of its own for the test objects
 * attached to it. It is created at a frozen time and only ever moves forward; an advance is started
 * (the time it moves to), its objects' due work is run, and the advance is finished.
 */
export type TestClockEvent =
  | { type: 'TestClockCreated'; data: { testClockId: string; merchantId: string; name: string | null; frozenTime: string; createdAt: string } }
  | { type: 'TestClockAdvanceStarted'; data: { testClockId: string; from: string; frozenTime: string; startedAt: string } }
  | { type: 'TestClockAdvanced'; data: { testClockId: string; frozenTime: string; finishedAt: string } }
  | { type: 'TestClockDeleted'; data: { testClockId: string; deletedAt: string } };

export type TestClockCommand =
  | { type: 'CreateTestClock'; data: { testClockId: string; merchantId: string; mode: Mode; name: string | null; frozenTime: string; at: string } }
  | { type: 'AdvanceTestClock'; data: { testClockId: string; merchantId: string; frozenTime: string; at: string } }
  | { type: 'FinishTestClockAdvance'; data: { frozenTime: string; at: string } }
  | { type: 'DeleteTestClock'; data: { testClockId: string; merchantId: string; at: string } };

export type TestClockStatus = 'ready' | 'advancing';

export interface TestClock {
  testClockId: string;
  merchantId: string;
  name: string | null;
  /** The clock's time; while it advances, the time it advances to. */
  frozenTime: string;
  /** While it advances, the time it advances from: the work due in (advancingFrom, frozenTime] is what the advance runs. */
  advancingFrom?: string;
  status: TestClockStatus;
  createdAt: string;
  deleted: boolean;
}

export interface TestClockState {
  clock?: TestClock;
}

/** The clock a command may act on: this tenant's, not deleted (anything else is not found, as another tenant's object is). */
function ownClock(state: TestClockState, { testClockId, merchantId }: { testClockId: string; merchantId: string }): TestClock {
  const { clock } = state;
  if (!clock || clock.deleted || clock.merchantId !== merchantId) throw new TestClockNotFound(testClockId);
  return clock;
}

function decide(command: TestClockCommand, state: TestClockState): TestClockEvent[] {
  switch (command.type) {
    case 'CreateTestClock': {
      const { testClockId, merchantId, mode, name, frozenTime, at } = command.data;
      if (mode !== 'test') throw new TestClockLiveMode();
      // The same keyed create again finds the clock it made.
      if (state.clock) return [];
      return [{ type: 'TestClockCreated', data: { testClockId, merchantId, name, frozenTime, createdAt: at } }];
    }
    case 'AdvanceTestClock': {
      const clock = ownClock(state, command.data);
      const { frozenTime, at } = command.data;
      // An advance interrupted (its process stopped) is resumed by asking for the same time again.
      if (clock.status === 'advancing') {
        if (Date.parse(frozenTime) === Date.parse(clock.frozenTime)) return [];
        throw new TestClockAdvancing(clock.frozenTime);
      }
      if (Date.parse(frozenTime) <= Date.parse(clock.frozenTime)) throw new TestClockTimeNotLater(clock.frozenTime);
      return [{ type: 'TestClockAdvanceStarted', data: { testClockId: clock.testClockId, from: clock.frozenTime, frozenTime, startedAt: at } }];
    }
    case 'FinishTestClockAdvance': {
      const { clock } = state;
      if (!clock || clock.status !== 'advancing' || Date.parse(clock.frozenTime) !== Date.parse(command.data.frozenTime)) return [];
      return [{ type: 'TestClockAdvanced', data: { testClockId: clock.testClockId, frozenTime: clock.frozenTime, finishedAt: command.data.at } }];
    }
    case 'DeleteTestClock': {
      const clock = ownClock(state, command.data);
      if (clock.status === 'advancing') throw new TestClockAdvancing(clock.frozenTime);
      return [{ type: 'TestClockDeleted', data: { testClockId: clock.testClockId, deletedAt: command.data.at } }];
    }
  }
}

function evolve(state: TestClockState, event: TestClockEvent): TestClockState {
  switch (event.type) {
    case 'TestClockCreated': {
      const { testClockId, merchantId, name, frozenTime, createdAt } = event.data;
      return { clock: { testClockId, merchantId, name, frozenTime, status: 'ready', createdAt, deleted: false } };
    }
    case 'TestClockAdvanceStarted':
      return { clock: { ...state.clock!, status: 'advancing', advancingFrom: event.data.from, frozenTime: event.data.frozenTime } };
    case 'TestClockAdvanced': {
      const { advancingFrom: _done, ...clock } = state.clock!;
      return { clock: { ...clock, status: 'ready', frozenTime: event.data.frozenTime } };
    }
    case 'TestClockDeleted':
      return { clock: { ...state.clock!, deleted: true } };
  }
}

export const testClockDecider: Decider<TestClockCommand, TestClockEvent, TestClockState> = {
  initialState: () => ({}),
  evolve,
  decide,
};
