import type { SqlExecutor } from '@app/database';
import { type PayoutEvent, payoutDelayDaysOf, reserveOf } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { writeLast } from '../projector/batch-writes';
import type { Projection, BatchContext } from '../projector/projection';

type SettingsChanged = Extract<PayoutEvent, { type: 'PayoutSettingsChanged' }>;

/**
 * Each change of a merchant's payout settings with the holding period and the rolling reserve it set, at
 * its position in the log: a credit to the payable is held for the period and keeps the reserve of the
 * last change before it
 * (payable-availability.reader.ts). Positions, not clocks, decide which change a credit follows, so a
 * rebuild from the log finds every credit's date again.
 */
export const payoutDelaysView: Projection = {
  name: 'payout_delays',
  version: 1,
  tables: ['payout_delays'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[], context: BatchContext) {
    const changes = events.filter((event) => event.type === 'PayoutSettingsChanged');
    if (changes.length === 0) return;
    const settings = changes.map((event) => (event.data as SettingsChanged['data']).settings);
    await writeLast(tx, context, 
      `INSERT INTO payout_delays (merchant_id, commit_position, prepare_position, delay_days, reserve_percent, reserve_days)
       SELECT * FROM unnest($1::text[], $2::numeric[], $3::numeric[], $4::int[], $5::int[], $6::int[]) ON CONFLICT DO NOTHING`,
      [
        changes.map((event) => (event.data as SettingsChanged['data']).merchantId),
        changes.map((event) => event.position.commit.toString()),
        changes.map((event) => event.position.prepare.toString()),
        settings.map(payoutDelayDaysOf),
        settings.map((one) => reserveOf(one).reservePercent),
        settings.map((one) => reserveOf(one).reserveDays),
      ],
    );
  },
};
