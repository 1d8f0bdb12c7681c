import type { RecordingClient } from './client';
import type { CallbackReceiver } from './receiver';
import type { Secret } from './records';
import { setDailyScheduleADayAgo } from './backdated-settings';
import type { ChaosMerchant, ChaosSeller } from './workload';

export interface Participants {
  merchants: ChaosMerchant[];
  auditorKey: string;
  /** Every credential handed out, with the operation whose response was allowed to show it. */
  secrets: Secret[];
}

/**
 * Registers the run's merchants (their callbacks go to the receiver) and an auditor, through the admin
 * API; each merchant is a platform with two sellers (accounts): one the sandbox verifies at once, one
 * never verified, both with a payout destination in their own names. Daily payout schedules: the first
 * platform's and its sellers' set a day before the run, the second platform's set now, and the third
 * platform's and its verified seller's set a day before with holding periods.
 */
export async function registerParticipants(
  client: RecordingClient,
  adminKey: string,
  receiver: CallbackReceiver,
  count: number,
  database: { url: string; schema: string },
  mode: 'test' | 'live' = 'test',
): Promise<Participants> {
  const headers = { 'x-admin-key': adminKey };
  const secrets: Secret[] = [];
  const merchants: ChaosMerchant[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await client.send({ kind: 'register-merchant', method: 'POST', path: '/v1/admin/merchants', headers, body: { name: `Chaos Market ${i + 1}` } });
    if (reply.status !== 201) throw new Error(`registering a merchant failed: ${reply.status}`);
    // Registration answers the owner's two tenants (docs/concepts/modes.md): the run's money moves in the
    // provider's mode, the sandbox's in test, Chapa's in live; both tenants' secrets must stay out of the log.
    const tenants = [reply.body.data, reply.body.data.live] as Array<{ merchantId: string; apiSecret: string; webhookSecret: string }>;
    const issuedBy = client.operations.at(-1)!.id;
    for (const tenant of tenants) {
      secrets.push({ name: `API secret of ${tenant.merchantId}`, value: tenant.apiSecret, issuedBy }, { name: `webhook secret of ${tenant.merchantId}`, value: tenant.webhookSecret, issuedBy });
    }
    const { merchantId, apiSecret, webhookSecret } = tenants[mode === 'live' ? 1 : 0];
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
    merchants.push({ merchantId, apiSecret, callbackUrl: receiver.urlFor(merchantId), sellers });
  }
  // Each market lets every other one debit and credit it, so an escrow may allocate to another registered
  // merchant (docs/concepts/authority.md: never by naming its id alone).
  for (const merchant of merchants) {
    for (const platform of merchants.filter((m) => m !== merchant)) {
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
  return { merchants, auditorKey, secrets };
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
