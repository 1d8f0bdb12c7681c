import { ledgerBody } from './audit-console.pages';

const TRIAL = { balanced: true, totalDebits: 10, totalCredits: 10, accounts: [{ account: 'test:provider:clearing', debit: 10, credit: 0, balance: 10 }] };

describe('the audit console’s ledger page', () => {
  it('shows which mode’s books it holds, with a switch to the other that keeps one mode at a time', () => {
    const page = String(ledgerBody('test', TRIAL, undefined));
    expect(page).toContain('<h1>Ledger: test mode</h1>');
    expect(page).toContain('<a class="button" href="/audit/ledger?mode=test" aria-current="page">Test books</a>');
    expect(page).toContain('<a class="button secondary" href="/audit/ledger?mode=live">Live books</a>');
    expect(page).toMatch(/id="books-mode" class="notice warn" role="note">Test mode: /);
    expect(page).toContain('Every test account now');
    // Balances as of an instant stay in the mode shown.
    expect(page).toContain('<input type="hidden" name="mode" value="test">');
  });

  it('says the live books are real money, and marks them the ones shown', () => {
    const page = String(ledgerBody('live', { ...TRIAL, accounts: [] }, { value: '2030-01-01T00:00:00.000Z', accounts: [] }));
    expect(page).toContain('aria-current="page">Live books</a>');
    expect(page).toMatch(/id="books-mode" class="notice" role="note">Live mode: real money/);
    expect(page).toContain('Balances of the live accounts as of 2030-01-01T00:00:00.000Z');
  });
});
