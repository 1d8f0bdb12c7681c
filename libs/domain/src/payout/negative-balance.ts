/**
 * How much of a movement on a payable goes to cover what its owner owed: a credit that arrives while
 * the balance is below zero pays the deficit first (docs/concepts/ledger.md, "Negative balances"),
 * and only what is left of it becomes available. Signed santim; a debit recovers nothing.
 */
export function recoveredBy(balanceBefore: number, amount: number): number {
  return amount > 0 && balanceBefore < 0 ? Math.min(amount, -balanceBefore) : 0;
}

/** What a payable owes at a balance: the deficit a later credit must cover first (zero when not below zero). */
export function deficitOf(balance: number): number {
  return balance < 0 ? -balance : 0;
}
