import { DomainError } from '../shared/domain-error';

/** A test clock that does not exist, was deleted, or is another tenant's: as for any other object (docs/concepts/authority.md). */
export class TestClockNotFound extends DomainError {
  constructor(testClockId: string) {
    super('ABC_001', `Test clock ${testClockId} was not found`, 'not_found');
  }
}

/** A live key asked for a test clock, or a live object was to be attached to one: live money runs on the real time only. */
export class TestClockLiveMode extends DomainError {
  constructor() {
    super('TEST_CLOCK_LIVE_MODE', 'Test clocks exist in test mode only: use a test key (sk_test_…); live objects always run on the real time', 'invalid');
  }
}

/** An advance to a time not after the clock's own: a test clock never goes back, so nothing that happened on it unhappens. */
export class TestClockTimeNotLater extends DomainError {
  constructor(frozenTime: string) {
    super('TEST_CLOCK_TIME_NOT_LATER', `frozenTime must be later than the clock's time (${frozenTime}): a test clock only moves forward`, 'invalid');
  }
}

/** An advance, or a deletion, while the clock is still advancing to another time. */
export class TestClockAdvancing extends DomainError {
  constructor(frozenTime: string) {
    super('TEST_CLOCK_ADVANCING', `The test clock is still advancing to ${frozenTime}; wait until its status is ready`, 'conflict');
  }
}

/**
 * An escrow would pay an account that runs on another time than its own (another test clock, a test clock
 * while the escrow runs on the real time, or the reverse): the account's holding period and schedule would
 * count money credited at one time on another, so the two must share one clock (docs/concepts/time.md).
 */
export class TestClockMismatch extends DomainError {
  constructor(accountId: string, accountClock: string | undefined, escrowClock: string | undefined) {
    const on = (clock: string | undefined) => (clock ? `test clock ${clock}` : 'the real time');
    super('TEST_CLOCK_MISMATCH', `Account ${accountId} runs on ${on(accountClock)} and the escrow on ${on(escrowClock)}: an escrow and the accounts it pays run on one clock`, 'invalid');
  }
}
