import { isDeepStrictEqual } from 'node:util';
import { payoutAccounts } from '@app/audit';
import type { SqlExecutor } from '@app/database';
import type { PayoutEvent } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { keyedLookup, readFor } from '../projector/batch-reads';
import { writeLast } from '../projector/batch-writes';
import type { BatchContext, BatchRead, Projection } from '../projector/projection';

const EVENTS = new Set(['PayoutSettingsChanged', 'PayoutDestinationSet', 'PayoutRequested']);

const payoutEvents = (events: readonly RecordedEvent[]) =>
  events.filter((recorded) => EVENTS.has(recorded.type)).map((recorded) => ({ type: recorded.type, data: recorded.data }) as PayoutEvent);

/** A merchant's row as far as a settings change needs it: the schedule in force and when it was set. */
interface Stored {
  schedule: unknown;
  schedule_set_at: string | null;
}

/**
 * The stored schedules a batch's settings changes keep the time of: of the merchants with a change that
 * does not say when its schedule was set (settingsAfter's rule, below).
 */
function storedSchedules(events: readonly RecordedEvent[]): BatchRead | undefined {
  const merchants = new Set(
    payoutEvents(events).flatMap((event) => (event.type === 'PayoutSettingsChanged' && event.data.scheduleSetAt === undefined ? [event.data.merchantId] : [])),
  );
  if (merchants.size === 0) return undefined;
  return { sql: `SELECT k.key AS merchant_id, v.schedule, v.schedule_set_at FROM ${keyedLookup('payout_schedules', 'merchant_id', 'schedule, schedule_set_at')}`, params: [JSON.stringify([...merchants])] };
}

/**
 * Per merchant with a payout account: its schedule, when that schedule was set, its minimum, its
 * destination's version and the last period a scheduled payout paid; and each version of its destination
 * (payout_destination_versions). The payment work's reconcile pass reads it to queue each due period
 * (beside the balances of the payable and fees accounts it names, so a merchant with too little to pay costs no job).
 * A batch's events are merged in memory into what each merchant's row takes, and written with the
 * batch's last statement (batch-writes.ts): nothing in a batch reads these tables back.
 */
export const payoutSchedulesView: Projection = {
  name: 'payout_schedules',
  version: 3,
  tables: ['payout_schedules', 'payout_destination_versions'],
  readBefore: (events) => storedSchedules(events),
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const relevant = payoutEvents(events);
    if (relevant.length === 0) return;
    const stored = new Map((await readFor(tx, context, () => storedSchedules(events))).map((row) => [row.merchant_id as string, row as unknown as Stored]));
    // A row per merchant from its first payout event; each event sets what it knows and keeps the rest.
    const rows = new Map<string, Record<string, unknown>>();
    const set = (merchantId: string, columns: Record<string, unknown>) => rows.set(merchantId, { ...rows.get(merchantId), ...columns });
    const destinations: { merchant_id: string; version: number; destination: unknown }[] = [];
    for (const event of relevant) {
      if (event.type === 'PayoutSettingsChanged') {
        const { merchantId, settings, changedAt, scheduleSetAt } = event.data;
        const { schedule, minimumAmount } = settings;
        // As settingsAfter folds it: the event says when its schedule was set, or (in the payout account's
        // stream, from before the settings had their own) a change of the minimum or callback URL alone keeps it.
        const before = stored.get(merchantId);
        const setAt = scheduleSetAt ?? (before && isDeepStrictEqual(before.schedule, schedule) ? (before.schedule_set_at ?? changedAt) : changedAt);
        set(merchantId, { schedule_kind: schedule.kind, schedule, minimum_amount: minimumAmount, schedule_set_at: setAt });
        stored.set(merchantId, { schedule, schedule_set_at: setAt });
      } else if (event.type === 'PayoutDestinationSet') {
        const { merchantId, version, destination } = event.data;
        set(merchantId, { has_destination: true, destination_version: version });
        destinations.push({ merchant_id: merchantId, version, destination });
      } else if (event.type === 'PayoutRequested' && event.data.period !== undefined) {
        set(event.data.merchantId, { last_period: event.data.period });
      }
    }
    // One upsert per set of columns the batch's events set (a merchant's row keeps the others, or takes their defaults).
    const byColumns = new Map<string, Record<string, unknown>[]>();
    for (const [merchantId, columns] of rows) {
      const key = Object.keys(columns).sort().join(', ');
      const [payable, fees] = payoutAccounts(merchantId);
      byColumns.set(key, [...(byColumns.get(key) ?? []), { merchant_id: merchantId, payable_account: payable, fees_account: fees, ...columns }]);
    }
    for (const [key, group] of byColumns) {
      const names = key.split(', ');
      await writeLast(
        tx,
        context,
        `INSERT INTO payout_schedules (merchant_id, payable_account, fees_account, ${key})
         SELECT merchant_id, payable_account, fees_account, ${key} FROM jsonb_populate_recordset(NULL::payout_schedules, $1::jsonb)
         ON CONFLICT (merchant_id) DO UPDATE SET ${names.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}`,
        [JSON.stringify(group)],
      );
    }
    if (destinations.length > 0) {
      await writeLast(
        tx,
        context,
        `INSERT INTO payout_destination_versions (merchant_id, version, destination)
         SELECT merchant_id, version, destination FROM jsonb_populate_recordset(NULL::payout_destination_versions, $1::jsonb) ON CONFLICT DO NOTHING`,
        [JSON.stringify(destinations)],
      );
    }
  },
};
