import { DEFAULT_PAYOUT_SETTINGS } from '@app/domain';
import { presentPayoutSettings } from '@app/contract';
import { payoutSettingsBody } from './payout-settings.page';

const standing = { pausedByPayoutId: null, lastPeriod: null };
const page = (reservePercent: number, reserveDays: number) =>
  String(payoutSettingsBody({ csrf: 't', settings: presentPayoutSettings({ version: 2, settings: { ...DEFAULT_PAYOUT_SETTINGS, reservePercent, reserveDays }, scheduleSetAt: 0 }, standing, Date.UTC(2030, 0, 1)) }));

describe('the payout settings page', () => {
  it('tells a seller the reserve its platform keeps, and that saving the form keeps it; none when there is none', () => {
    expect(page(10, 7)).toContain('Rolling reserve: 10 % of each credit (rounded down to the santim) is kept for 7 days after the day it was credited');
    expect(page(10, 7)).not.toContain('name="reservePercent"');
    expect(page(0, 0)).toContain('No rolling reserve');
  });
});
