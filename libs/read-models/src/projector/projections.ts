import type { SqlExecutor } from '@app/database';
import type { EventStoreEngine, RecordedEvent } from '@app/event-store';
import { callbackDeliveriesView } from '../callbacks/callback-deliveries.projection';
import { escrowAllocationsView } from '../payables/escrow-allocations.projection';
import { eventLogProjection } from '../events/event-log.projection';
import { ledgerProjection } from '../ledger/ledger.projection';
import { merchantEventsView } from '../events/merchant-events.projection';
import { payablesView } from '../payables/payables.projection';
import type { BulkWriter, Projection } from './projection';
import { payoutDelaysView } from '../payouts/payout-delays.projection';
import { payoutSchedulesView } from '../payouts/payout-schedules.projection';
import { payoutsView } from '../payouts/payouts.projection';
import { providerOperationsView } from '../provider-operations/provider-operations.projection';
import { streamOwnersView } from '../events/stream-owners.projection';
import { webhookEndpointsView } from '../webhook-endpoints/webhook-endpoints.projection';
import { accountsView, payoutDestinationHoldersView } from '../accounts/accounts.projection';
import { transfersView } from '../transfers/transfers.projection';
import { platformLinksView } from '../platform-links/platform-links.projection';
import { testClockObjectsView } from '../test-clocks/test-clock-objects.projection';
import { testClocksView } from '../test-clocks/test-clocks.projection';

export const merchantsView: Projection = {
  name: 'merchants_view',
  version: 1,
  tables: ['merchants_view'],
  async applyBatch(tx: SqlExecutor, events: readonly RecordedEvent[]) {
    for (const event of events) {
      const data = event.data as { merchantId: string; name?: string };
      if (event.type === 'MerchantRegistered') {
        await tx.query(
          `INSERT INTO merchants_view (merchant_id, name, registered_at) VALUES ($1, $2, $3) ON CONFLICT (merchant_id) DO NOTHING`,
          [data.merchantId, data.name, event.recordedAt],
        );
      } else if (event.type === 'MerchantApiSecretRotated' || event.type === 'MerchantWebhookSecretRotated') {
        const column = event.type === 'MerchantApiSecretRotated' ? 'api_secret_rotated_at' : 'webhook_secret_rotated_at';
        await tx.query(`UPDATE merchants_view SET ${column} = $2 WHERE merchant_id = $1`, [data.merchantId, event.recordedAt]);
      }
    }
  },
  // Two statements a batch at most, not one an event: the registrations, then each merchant's latest
  // rotation of either secret (a later one overwrites an earlier, as applyBatch's updates do in log order).
  async rebuildBatch(writer: BulkWriter, events: readonly RecordedEvent[]) {
    const registered: { merchantId: string; name: string; at: string }[] = [];
    const rotated = new Map<string, { api?: string; webhook?: string }>();
    for (const event of events) {
      const { merchantId, name } = event.data as { merchantId: string; name: string };
      if (event.type === 'MerchantRegistered') registered.push({ merchantId, name, at: event.recordedAt.toISOString() });
      else if (event.type === 'MerchantApiSecretRotated') rotated.set(merchantId, { ...rotated.get(merchantId), api: event.recordedAt.toISOString() });
      else if (event.type === 'MerchantWebhookSecretRotated') rotated.set(merchantId, { ...rotated.get(merchantId), webhook: event.recordedAt.toISOString() });
    }
    if (registered.length > 0) {
      await writer.query(
        `INSERT INTO merchants_view (merchant_id, name, registered_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) ON CONFLICT (merchant_id) DO NOTHING`,
        [registered.map((r) => r.merchantId), registered.map((r) => r.name), registered.map((r) => r.at)],
      );
    }
    if (rotated.size === 0) return;
    const rotations = [...rotated];
    await writer.query(
      `UPDATE merchants_view m SET api_secret_rotated_at = COALESCE(r.api, m.api_secret_rotated_at), webhook_secret_rotated_at = COALESCE(r.webhook, m.webhook_secret_rotated_at)
       FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS r(merchant_id, api, webhook) WHERE m.merchant_id = r.merchant_id`,
      [rotations.map(([id]) => id), rotations.map(([, r]) => r.api ?? null), rotations.map(([, r]) => r.webhook ?? null)],
    );
  },
};

/** Every projection folds what it needs itself and reads no other view, so their order does not matter. */
export const CORE_PROJECTIONS: readonly Projection[] = [merchantsView, payablesView, callbackDeliveriesView, providerOperationsView, payoutsView, payoutSchedulesView, payoutDelaysView, streamOwnersView, escrowAllocationsView, merchantEventsView, webhookEndpointsView, accountsView, payoutDestinationHoldersView, transfersView, platformLinksView, testClockObjectsView, testClocksView, ledgerProjection];

/** The projections a deployment runs: where the engine's log does not read in SQL, also a copy of it for auditors. */
export function projectionsFor(engine: EventStoreEngine): readonly Projection[] {
  return engine.sqlLog ? CORE_PROJECTIONS : [...CORE_PROJECTIONS, eventLogProjection];
}
