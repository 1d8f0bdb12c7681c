import type { SqlExecutor } from '@app/database';
import type { EventStoreEngine, RecordedEvent } from '@app/event-store';
import { callbackDeliveriesView } from '../callbacks/callback-deliveries.projection';
import { escrowAllocationsView } from '../payables/escrow-allocations.projection';
import { eventLogProjection } from '../events/event-log.projection';
import { ledgerProjection } from '../ledger/ledger.projection';
import { merchantEventsView } from '../events/merchant-events.projection';
import { payablesView } from '../payables/payables.projection';
import type { Projection } from './projection';
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
};

/** Every projection folds what it needs itself and reads no other view, so their order does not matter. */
export const CORE_PROJECTIONS: readonly Projection[] = [merchantsView, payablesView, callbackDeliveriesView, providerOperationsView, payoutsView, payoutSchedulesView, payoutDelaysView, streamOwnersView, escrowAllocationsView, merchantEventsView, webhookEndpointsView, accountsView, payoutDestinationHoldersView, transfersView, platformLinksView, testClockObjectsView, testClocksView, ledgerProjection];

/** The projections a deployment runs: where the engine's log does not read in SQL, also a copy of it for auditors. */
export function projectionsFor(engine: EventStoreEngine): readonly Projection[] {
  return engine.sqlLog ? CORE_PROJECTIONS : [...CORE_PROJECTIONS, eventLogProjection];
}
