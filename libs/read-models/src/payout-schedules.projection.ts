import { ACCOUNTS } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayoutEvent } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from './projection';

const EVENTS = new Set(['PayoutSettingsChanged', 'PayoutDestinationSet', 'PayoutRequested']);

/**
 * Per merchant with a payout account: its schedule, when that schedule was set, its minimum, its
 * destination's version, and the last period a scheduled payout paid. The payment work's reconcile pass reads it to queue each due
 * period (beside the payable's balance, so a merchant with too little to pay costs no job).
 */
export const payoutSchedulesView: Projection = {
  name: 'payout_schedules',
  version: 2,
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
        // As the payout account folds it: a change of the minimum or callback URL alone keeps the instant the schedule was set.
        await tx.query(
          `INSERT INTO payout_schedules (merchant_id, payable_account, schedule_kind, schedule, minimum_amount, schedule_set_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (merchant_id) DO UPDATE SET schedule_kind = EXCLUDED.schedule_kind, schedule = EXCLUDED.schedule, minimum_amount = EXCLUDED.minimum_amount,
             schedule_set_at = CASE WHEN payout_schedules.schedule = EXCLUDED.schedule THEN COALESCE(payout_schedules.schedule_set_at, EXCLUDED.schedule_set_at) ELSE EXCLUDED.schedule_set_at END`,
          [event.data.merchantId, ACCOUNTS.merchantPayable(event.data.merchantId), schedule.kind, JSON.stringify(schedule), minimumAmount, event.data.changedAt],
        );
      } else if (event.type === 'PayoutDestinationSet') {
        await upsert({ has_destination: true, destination_version: event.data.version });
      } else if (event.type === 'PayoutRequested' && event.data.period !== undefined) {
        await upsert({ last_period: event.data.period });
      }
    }
  },
};
