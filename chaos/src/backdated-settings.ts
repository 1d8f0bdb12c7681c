import { randomUUID } from 'node:crypto';
import { createPgClient, notificationChannel } from '@app/database';
import { payoutSettingsDecider, santim, streams } from '@app/domain';
import { PostgresEventStore } from '@app/event-store';
import { CommandRunner, SealingEventStore } from '@app/infrastructure';
import type { RecordingClient } from './client';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A daily payout schedule at this very hour in Addis Ababa, set as of a day before the run (as
 * test/e2e/payout-settings.spec.ts sets one), so that today's period falls due while the run's processes
 * die and its on-demand payouts ask for the same money. `payoutDelayDays` holds what is credited from
 * now on for that many days: none of the run's credits is available before it ends, so its payouts may
 * take only the fees (never held) less what went out. No API sets a schedule in the past: the command
 * goes through the settings' decider and the sealed store as the API's would, on the run's own schema.
 * It is recorded as a write of the run, so the checks expect its event once and count no phantom.
 */
export async function setDailyScheduleADayAgo(
  client: RecordingClient,
  database: { url: string; schema: string },
  merchantId: string,
  callbackUrl: string | null,
  payoutDelayDays = 0,
): Promise<void> {
  const db = createPgClient({ connectionString: database.url, schema: database.schema, maxConnections: 1 });
  const requestId = `backdated-${randomUUID()}`;
  try {
    const store = new SealingEventStore(new PostgresEventStore(db, { notifyChannel: notificationChannel(database.schema, 'events') }));
    const hour = (new Date().getUTCHours() + 3) % 24;
    await new CommandRunner(store).run(
      streams.payoutSettings(merchantId),
      payoutSettingsDecider,
      { type: 'SetPayoutSettings', data: { merchantId, settings: { schedule: { kind: 'daily', hour }, minimumAmount: santim(1_00), callbackUrl, payoutDelayDays }, at: new Date(Date.now() - DAY_MS).toISOString() } },
      { actor: { type: 'merchant', id: merchantId }, correlationId: requestId },
    );
    client.recordDirectWrite({ kind: 'payout-settings', path: `(event store) ${streams.payoutSettings(merchantId)}, set a day before`, requestId, streamId: streams.payoutSettings(merchantId) });
  } finally {
    await db.close();
  }
}
