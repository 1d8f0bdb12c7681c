import type { RecordingClient } from './client';
import type { CallbackReceiver } from './receiver';
import type { Secret } from './records';
import { setDailyScheduleADayAgo } from './backdated-settings';
import type { ChaosMode, ChaosProvider, CustomerPhones } from './provider';
import type { ChaosMerchant, ChaosSeller } from './workload';

export interface Participants {
  merchants: ChaosMerchant[];
  /** Every tenant registered, with its mode: the workload's, and the other mode's of each owner when the run has no live provider. */
  tenants: { merchantId: string; mode: ChaosMode }[];
  auditorKey: string;
  /** Every credential handed out, with the operation whose response was allowed to show it. */
  secrets: Secret[];
}

/**
 * Registers the run's merchants (their callbacks go to the receiver) and an auditor, through the admin
 * API. Registering an owner registers a test and a live tenant (docs/concepts/modes.md): the run uses
 * each mode the provider offers, test and live side by side with a live provider, test alone without.
 * Each tenant is a platform with two sellers (accounts): one the sandbox verifies at once (in test mode;
 * a live one waits for staff, who never come), one never verified, both with a payout destination in
 * their own names. Daily payout schedules: the first owner's tenants and their sellers set a day before
 * the run, the second owner's set now, and the third owner's and their verified sellers' set a day before
 * with holding periods. Each tenant is linked to every other of its mode.
 */
export async function registerParticipants(
  client: RecordingClient,
  adminKey: string,
  receiver: CallbackReceiver,
  count: number,
  database: { url: string; schema: string },
  provider: Pick<ChaosProvider, 'modes' | 'phonesFor'>,
): Promise<Participants> {
  const headers = { 'x-admin-key': adminKey };
  const secrets: Secret[] = [];
  const merchants: ChaosMerchant[] = [];
  const tenants: Participants['tenants'] = [];
  for (let i = 0; i < count; i++) {
    const reply = await client.send({ kind: 'register-merchant', method: 'POST', path: '/v1/admin/merchants', headers, body: { name: `Chaos Market ${i + 1}` } });
    if (reply.status !== 201) throw new Error(`registering a merchant failed: ${reply.status}`);
    // Registration answers the owner's two tenants; both tenants' secrets must stay out of the log.
    const registered = { test: reply.body.data, live: reply.body.data.live } as Record<ChaosMode, { merchantId: string; apiSecret: string; webhookSecret: string }>;
    const issuedBy = client.operations.at(-1)!.id;
    for (const mode of ['test', 'live'] as const) {
      const tenant = registered[mode];
      tenants.push({ merchantId: tenant.merchantId, mode });
      secrets.push({ name: `API secret of ${tenant.merchantId}`, value: tenant.apiSecret, issuedBy }, { name: `webhook secret of ${tenant.merchantId}`, value: tenant.webhookSecret, issuedBy });
    }
    for (const mode of provider.modes) merchants.push(await setUpTenant(client, receiver, database, i, mode, registered[mode], provider.phonesFor(mode)));
  }
  // Each market lets every other one of its mode debit and credit it, so an escrow may allocate to another
  // registered merchant (docs/concepts/authority.md: never by naming its id alone; another mode's is another tenant's).
  for (const merchant of merchants) {
    for (const platform of merchants.filter((m) => m !== merchant && m.mode === merchant.mode)) {
      const linked = await client.send({
        kind: 'link-platform',
        method: 'POST',
        path: '/v1/trdp/platform-links',
        headers: { 'x-api-secret': merchant.apiSecret },
        body: { platformId: platform.merchantId },
        streamId: `platform-link-${merchant.merchantId}.${platform.merchantId}`,
      });
      if (linked.status !== 201) throw new Error(`linking a merchant to a platform failed: ${linked.status}`);
    }
  }
  const auditor = await client.send({ kind: 'register-auditor', method: 'POST', path: '/v1/admin/auditors', headers, body: { name: 'Chaos auditor' } });
  if (auditor.status !== 201) throw new Error(`registering an auditor failed: ${auditor.status}`);
  const auditorKey = auditor.body.data.auditorKey as string;
  secrets.push({ name: 'auditor key', value: auditorKey, issuedBy: client.operations.at(-1)!.id });
  return { merchants, tenants, auditorKey, secrets };
}

/** The `i`th owner's tenant of one mode, made a platform with its sellers, destinations and schedule. */
async function setUpTenant(
  client: RecordingClient,
  receiver: CallbackReceiver,
  database: { url: string; schema: string },
  i: number,
  mode: ChaosMode,
  tenant: { merchantId: string; apiSecret: string; webhookSecret: string },
  phones: CustomerPhones,
): Promise<ChaosMerchant> {
  const { merchantId, apiSecret, webhookSecret } = tenant;
  receiver.trust(merchantId, webhookSecret);
  const platform = { 'x-api-secret': apiSecret };
  await setDestination(client, platform, merchantId, `Chaos Market ${i + 1}`);
  const sellers = [
    await onboardSeller(client, platform, { name: `Chaos Seller ${i + 1}A`, tin: SANDBOX_VERIFIED_TIN }),
    await onboardSeller(client, platform, { name: `Chaos Seller ${i + 1}B` }),
  ];
  if (i === 0) {
    // The platform and both its sellers pay out daily at this hour, as set a day ago: today's period is
    // due during the run, while on-demand payouts ask for the same money (the unverified seller's pays nothing).
    await setDailyScheduleADayAgo(client, database, merchantId, receiver.urlFor(merchantId));
    for (const seller of sellers) await setDailyScheduleADayAgo(client, database, seller.accountId, null);
  }
  if (i === 2) {
    // Holding periods: the platform's credits are held two days, its verified seller's one, so all the money
    // released, paid or transferred to them in the run is still on hold when it ends; their payouts (on
    // demand, and today's scheduled period) may pay only what is available (the availability check).
    await setDailyScheduleADayAgo(client, database, merchantId, receiver.urlFor(merchantId), 2);
    await setDailyScheduleADayAgo(client, database, sellers[0].accountId, null, 1);
  }
  if (i === 1) {
    // A schedule set daily at this very hour in Addis Ababa (UTC+3): the day's period fell due before
    // it was set, so every pass while processes die must leave it unpaid (the schedule first pays a day
    // later), and the on-demand payouts take the money; its payout callbacks come to the receiver too.
    const settings = await client.send({
      kind: 'payout-settings',
      method: 'POST',
      path: '/v1/trdp/payout-settings',
      headers: platform,
      body: { schedule: 'daily', hour: (new Date().getUTCHours() + 3) % 24, minimumAmount: 100, callbackURL: receiver.urlFor(merchantId) },
      streamId: `payout-settings-${merchantId}`,
    });
    if (settings.status !== 200) throw new Error(`setting a payout schedule failed: ${settings.status}`);
  }
  return { merchantId, mode, phones, apiSecret, callbackUrl: receiver.urlFor(merchantId), sellers };
}

/** The sandbox verifies an account with this TIN at once (docs/guides/marketplaces.md, Verification). */
const SANDBOX_VERIFIED_TIN = '0000000001';

async function onboardSeller(client: RecordingClient, platform: Record<string, string>, seller: { name: string; tin?: string }): Promise<ChaosSeller> {
  const created = await client.send({ kind: 'create-account', method: 'POST', path: '/v1/trdp/accounts', headers: platform, body: { type: 'individual', ...seller } });
  if (created.status !== 201) throw new Error(`creating an account failed: ${created.status}`);
  const accountId = created.body.data.accountId as string;
  await setDestination(client, { ...platform, 'x-account-id': accountId }, accountId, seller.name);
  return { accountId, verified: created.body.data.status === 'VERIFIED' };
}

/** Payouts go to a wallet (telebirr's code at Chapa; any account the sandbox pays), held in the payee's own name. */
async function setDestination(client: RecordingClient, headers: Record<string, string>, payee: string, holderName: string): Promise<void> {
  const destination = await client.send({
    kind: 'payout-destination',
    method: 'POST',
    path: '/v1/trdp/payout-destination',
    headers,
    body: { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName },
    streamId: `payout-destination-${payee}`,
  });
  if (destination.status !== 200) throw new Error(`setting a payout destination failed: ${destination.status}`);
}
