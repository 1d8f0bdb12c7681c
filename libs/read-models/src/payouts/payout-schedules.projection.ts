import { payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayoutEvent } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { Projection } from '../projector/projection';

const EVENTS = new Set(['PayoutSettingsChanged', 'PayoutDestinationSet', 'PayoutRequested']);

/**
 * Per merchant with a payout account: its schedule, when that schedule was set, its minimum, its
 * destination's version and the last period a scheduled payout paid; and each version of its destination
 * (payout_destination_versions). The payment work's reconcile pass reads it to queue each due period
 * (beside the balances of the payable and fees accounts it names, so a merchant with too little to pay costs no job).
 */
export const payoutSchedulesView: Projection = {
  name: 'payout_schedules',
  version: 3,
  tables: ['payout_schedules', 'payout_destination_versions'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      if (!EVENTS.has(recorded.type)) continue;
      const event = { type: recorded.type, data: recorded.data } as PayoutEvent;
      // A row per merchant from its first payout event; each event sets what it knows and keeps the rest.
      const upsert = (columns: Record<string, unknown>) => {
        const names = Object.keys(columns);
        return tx.query(
          `INSERT INTO payout_schedules (merchant_id, payable_account, fees_account, ${names.join(', ')}) VALUES ($1, $2, $3, ${names.map((_, i) => `$${i + 4}`).join(', ')})
           ON CONFLICT (merchant_id) DO UPDATE SET ${names.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}`,
          [event.data.merchantId, ...payoutAccounts(event.data.merchantId), ...Object.values(columns)],
        );
      };
      if (event.type === 'PayoutSettingsChanged') {
        const { merchantId, settings, changedAt, scheduleSetAt } = event.data;
        const { schedule, minimumAmount } = settings;
        // As settingsAfter folds it: the event says when its schedule was set, or (in the payout account's
        // stream, from before the settings had their own) a change of the minimum or callback URL alone keeps it.
        await tx.query(
          `INSERT INTO payout_schedules (merchant_id, payable_account, schedule_kind, schedule, minimum_amount, schedule_set_at, fees_account) VALUES ($1, $2, $3, $4, $5, COALESCE($7::timestamptz, $6::timestamptz), $8)
           ON CONFLICT (merchant_id) DO UPDATE SET schedule_kind = EXCLUDED.schedule_kind, schedule = EXCLUDED.schedule, minimum_amount = EXCLUDED.minimum_amount,
             schedule_set_at = CASE WHEN $7::timestamptz IS NULL AND payout_schedules.schedule = EXCLUDED.schedule THEN COALESCE(payout_schedules.schedule_set_at, EXCLUDED.schedule_set_at) ELSE EXCLUDED.schedule_set_at END`,
          [merchantId, payoutAccounts(merchantId)[0], schedule.kind, JSON.stringify(schedule), minimumAmount, changedAt, scheduleSetAt ?? null, payoutAccounts(merchantId)[1]],
        );
      } else if (event.type === 'PayoutDestinationSet') {
        await upsert({ has_destination: true, destination_version: event.data.version });
        const { merchantId, version, destination } = event.data;
        await tx.query(`INSERT INTO payout_destination_versions (merchant_id, version, destination) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [merchantId, version, JSON.stringify(destination)]);
      } else if (event.type === 'PayoutRequested' && event.data.period !== undefined) {
        await upsert({ last_period: event.data.period });
      }
    }
  },
};
