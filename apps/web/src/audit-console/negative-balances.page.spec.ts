import { negativeBalancesBody } from './negative-balances.page';

const NOW = Date.parse('2030-01-20T09:00:00Z');

describe('the audit console’s negative balances page', () => {
  it('lists each payable below zero with who owes, how much, since when and for how many days, an account with its platform', () => {
    const page = String(
      negativeBalancesBody(
        'live',
        [
          { ownerId: 'acct_1', platformId: 'mer_p', name: 'Tigist Textiles', balance: -2_050, negativeSince: new Date('2030-01-10T08:00:00Z') },
          { ownerId: 'mer_q', platformId: null, name: 'Quick Market', balance: -100, negativeSince: new Date('2030-01-12T09:00:00Z') },
        ],
        7,
        NOW,
      ),
    );
    const rows = page.split('<tr>').slice(2);
    expect(rows[0]).toContain('Tigist Textiles');
    expect(rows[0]).toContain('Account acct_1 of mer_p');
    expect(rows[0]).toContain('-20.50 ETB');
    expect(rows[0]).toMatch(/data-label="Days" class="num">10</);
    expect(rows[0]).toContain('href="/audit/statement?merchant=acct_1"');
    expect(rows[1]).toContain('Merchant mer_q');
    expect(rows[1]).toMatch(/data-label="Days" class="num">8</);
    expect(page).toContain('more than 7 days (NEGATIVE_BALANCE_ALERT_DAYS)');
    // One mode's at a time, the mode said.
    expect(page).toContain('<h1>Negative balances: live mode</h1>');
    expect(page).toContain('aria-current="page">Live books</a>');
  });

  it('says when no balance has been below zero that long', () => {
    expect(String(negativeBalancesBody('test', [], 7, NOW))).toContain('No balance has been below zero for longer than 7 days.');
  });
});
