import type { Migration } from '@app/database';
import { ACCOUNTS_MIGRATIONS } from './accounts/accounts.migrations';
import { CALLBACK_DELIVERIES_MIGRATIONS } from './callbacks/callbacks.migrations';
import { EVENTS_MIGRATIONS } from './events/events.migrations';
import { HISTORY_MIGRATIONS } from './history.migrations';
import { LEDGER_MIGRATIONS } from './ledger/ledger.migrations';
import { PAYABLES_MIGRATIONS } from './payables/payables.migrations';
import { PAYOUTS_MIGRATIONS } from './payouts/payouts.migrations';
import { PLATFORM_LINKS_MIGRATIONS } from './platform-links/platform-links.migrations';
import { PROVIDER_OPERATIONS_MIGRATIONS } from './provider-operations/provider-operations.migrations';
import { TEST_CLOCKS_MIGRATIONS } from './test-clocks/test-clocks.migrations';
import { TRANSFERS_MIGRATIONS } from './transfers/transfers.migrations';
import { WEBHOOK_ENDPOINTS_MIGRATIONS } from './webhook-endpoints/webhook-endpoints.migrations';

/**
 * Every read model's migrations in the one order the runner applies them (libs/database/src/migrations.ts):
 * by id, whose number each new migration takes next. Each feature's folder keeps those of its tables,
 * history.migrations.ts those that made several at once; read-model.migrations.spec.ts holds the list to
 * what databases in the field have run.
 */
export const READ_MODEL_MIGRATIONS: readonly Migration[] = [
  ...HISTORY_MIGRATIONS,
  ...ACCOUNTS_MIGRATIONS,
  ...CALLBACK_DELIVERIES_MIGRATIONS,
  ...EVENTS_MIGRATIONS,
  ...LEDGER_MIGRATIONS,
  ...PAYABLES_MIGRATIONS,
  ...PAYOUTS_MIGRATIONS,
  ...PLATFORM_LINKS_MIGRATIONS,
  ...PROVIDER_OPERATIONS_MIGRATIONS,
  ...TEST_CLOCKS_MIGRATIONS,
  ...TRANSFERS_MIGRATIONS,
  ...WEBHOOK_ENDPOINTS_MIGRATIONS,
].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
