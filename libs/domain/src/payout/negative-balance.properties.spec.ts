import fc from 'fast-check';
import { deficitOf, recoveredBy } from './negative-balance';

/** A payable's movements as the ledger posts them, signed santim: releases and transfers in, reversals, penalties, refunds and payouts out. */
const aMovement = fc.oneof(fc.integer({ min: 1, max: 5_000_000 }), fc.integer({ min: -5_000_000, max: -1 }));

describe('Negative balances and their recovery', () => {
  it('are recovered exactly: what credits covered equals the deficits debits made, less what is still owed, and nothing is created or lost', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5_000_000, max: 5_000_000 }), fc.array(aMovement, { maxLength: 80 }), (opening, movements) => {
        let balance = opening;
        let recovered = 0;
        let deficitsMade = 0;
        let available = 0;
        for (const amount of movements) {
          const covered = recoveredBy(balance, amount);
          expect(Number.isSafeInteger(covered)).toBe(true);
          expect(covered).toBeGreaterThanOrEqual(0);
          expect(covered).toBeLessThanOrEqual(Math.max(0, amount));
          // A credit covers the deficit before anything else of it becomes available.
          expect(covered).toBe(Math.min(Math.max(0, amount), deficitOf(balance)));
          if (amount < 0) deficitsMade += deficitOf(balance + amount) - deficitOf(balance);
          recovered += covered;
          available += Math.max(0, amount) - covered;
          balance += amount;
        }
        // Every santim owed was either covered by a later credit or is still owed.
        expect(recovered).toBe(deficitOf(opening) + deficitsMade - deficitOf(balance));
        // Credits split into what covered deficits and what became available, nothing more nor less.
        const credits = movements.filter((m) => m > 0).reduce((t, m) => t + m, 0);
        expect(recovered + available).toBe(credits);
        // The balance is what came in less what went out, wherever it stands.
        expect(balance).toBe(movements.reduce((t, m) => t + m, opening));
      }),
    );
  });

  it('covers nothing when the balance is not below zero or the movement is a debit', () => {
    expect(recoveredBy(0, 500)).toBe(0);
    expect(recoveredBy(100, 500)).toBe(0);
    expect(recoveredBy(-300, -500)).toBe(0);
    expect(recoveredBy(-300, 500)).toBe(300);
    expect(recoveredBy(-800, 500)).toBe(500);
  });
});
