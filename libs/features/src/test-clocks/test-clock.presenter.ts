import type { TestClock } from '@app/domain';

export function presentTestClock(clock: TestClock) {
  return { testClockId: clock.testClockId, name: clock.name, frozenTime: clock.frozenTime, status: clock.status, createdAt: clock.createdAt };
}
