import type { DatePeriod, PayableOwner } from '@app/read-models';
import { statementBody, statementSubject } from '../kit/statement-view';

/** The line under the audit console's statement heading that says whose statement it is. */
function subjectLine(ownerId: string, owner: PayableOwner | undefined): string {
  const body = String(
    statementBody({
      subject: statementSubject(ownerId, owner),
      period: { from: '2030-01-01T00:00:00+03:00', to: '2030-01-02T00:00:00+03:00', fromDate: '2030-01-01', toDate: '2030-01-01' } as DatePeriod,
      statement: { from: '2030-01-01T00:00:00+03:00', to: '2030-01-02T00:00:00+03:00', opening: 0, movements: [], closing: 0, livemode: false },
      form: { action: '/audit/statement', label: 'Merchant and period' },
      csvHref: '/audit/statement.csv',
      links: () => undefined,
    }),
  );
  return /<p id="statement-subject">(.*?)<\/p>/.exec(body)![1];
}

describe("the audit console's statement names whose it is", () => {
  it("an account by its legal name and its platform's, not as an unregistered merchant", () => {
    const line = subjectLine('acct_1', { kind: 'account', name: 'Tigist Textiles', platformId: 'mer_p', platformName: 'Negative Marketplace' });
    expect(line).toContain('Tigist Textiles (acct_1), account of Negative Marketplace (mer_p)');
    expect(line).not.toContain('no merchant');
  });

  it("an account whose platform is not (yet) in the merchants' view by its platform's id", () => {
    expect(subjectLine('acct_1', { kind: 'account', name: 'Tigist Textiles', platformId: 'mer_p', platformName: undefined })).toContain('Tigist Textiles (acct_1), account of mer_p,');
  });

  it('a merchant by its registered name, and an id that names no one as such', () => {
    expect(subjectLine('mer_q', { kind: 'merchant', name: 'Quick Market' })).toContain('Quick Market (mer_q)');
    expect(subjectLine('courier-1', undefined)).toContain('courier-1 (no merchant or account registered under this id)');
  });

  it('escapes the names it prints', () => {
    expect(subjectLine('acct_1', { kind: 'account', name: '<b>Tigist</b>', platformId: 'mer_p', platformName: 'A & B' })).toContain('&lt;b&gt;Tigist&lt;/b&gt; (acct_1), account of A &amp; B (mer_p)');
  });
});
