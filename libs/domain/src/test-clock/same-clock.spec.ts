import { refuseOtherClocks } from './same-clock';
import { TestClockMismatch } from './test-clock.errors';

describe('an escrow and the accounts it pays run on one clock', () => {
  it('accepts accounts on its own test clock, or on the real time with it', () => {
    expect(() => refuseOtherClocks('clock_a', [{ accountId: 'acct_1', testClockId: 'clock_a' }])).not.toThrow();
    expect(() => refuseOtherClocks(undefined, [{ accountId: 'acct_1' }, { accountId: 'acct_2' }])).not.toThrow();
    expect(() => refuseOtherClocks('clock_a', [])).not.toThrow();
  });

  it('refuses an account on another test clock, on one while the escrow runs on the real time, or on the real time while the escrow runs on one', () => {
    const refused = (escrowClock: string | undefined, accounts: { accountId: string; testClockId?: string }[]) => {
      try {
        refuseOtherClocks(escrowClock, accounts);
      } catch (error) {
        return error instanceof TestClockMismatch && [error.code, error.message];
      }
      return undefined;
    };
    expect(refused('clock_a', [{ accountId: 'acct_1', testClockId: 'clock_a' }, { accountId: 'acct_2', testClockId: 'clock_b' }])).toEqual([
      'TEST_CLOCK_MISMATCH',
      'Account acct_2 runs on test clock clock_b and the escrow on test clock clock_a: an escrow and the accounts it pays run on one clock',
    ]);
    expect(refused(undefined, [{ accountId: 'acct_1', testClockId: 'clock_b' }])).toEqual(['TEST_CLOCK_MISMATCH', expect.stringContaining('and the escrow on the real time')]);
    expect(refused('clock_a', [{ accountId: 'acct_1' }])).toEqual(['TEST_CLOCK_MISMATCH', expect.stringContaining('Account acct_1 runs on the real time')]);
  });
});
