import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayoutEvent } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from './projection';

const EVENTS = new Set(['PayoutSettingsChanged', 'PayoutDestinationSet', 'PayoutRequested']);

/**
 * Per merchant with a payout account: its schedule and minimum, whether it has a destination, and the
 * last period a scheduled payout paid. The payment work's reconcile pass reads it to queue each due
 * period (beside the payable's balance, so a merchant with too little to pay costs no job).
 */
export const payoutSchedulesView: Projection = {
  name: 'payout_schedules',
  version: 1,
  tables: ['payout_schedules'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      if (!EVENTS.has(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as PayoutEvent;
      // A row per merchant from its first payout event; each event sets what it knows and keeps the rest.
      const upsert = (columns: Record<string, unknown>) => {
        const names = Object.keys(columns);
        return tx.query(
          `INSERT INTO payout_schedules (merchant_id, payable_account, ${names.join(', ')}) VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')})
           ON CONFLICT (merchant_id) DO UPDATE SET ${names.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}`,
          [event.data.merchantId, ACCOUNTS.merchantPayable(event.data.merchantId), ...Object.values(columns)],
        );
      };
      if (event.type === 'PayoutSettingsChanged') {
        const { schedule, minimumAmount } = event.data.settings;
        await upsert({ schedule_kind: schedule.kind, schedule: JSON.stringify(schedule), minimum_amount: minimumAmount });
      } else if (event.type === 'PayoutDestinationSet') {
        await upsert({ has_destination: true });
      } else if (event.type === 'PayoutRequested' && event.data.period !== undefined) {
        await upsert({ last_period: event.data.period });
      }
    }
  },
};
