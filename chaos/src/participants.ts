import type { RecordingClient } from './client';
import type { CallbackReceiver } from './receiver';
import type { Secret } from './records';
import type { ChaosMerchant } from './workload';

export interface Participants {
  merchants: ChaosMerchant[];
  auditorKey: string;
  /** Every credential handed out, with the operation whose response was allowed to show it. */
  secrets: Secret[];
}

/** Registers the run's merchants (their callbacks go to the receiver) and an auditor, through the admin API. */
export async function registerParticipants(client: RecordingClient, adminKey: string, receiver: CallbackReceiver, count: number): Promise<Participants> {
  const headers = { 'x-admin-key': adminKey };
  const secrets: Secret[] = [];
  const merchants: ChaosMerchant[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await client.send({ kind: 'register-merchant', method: 'POST', path: '/v1/admin/merchants', headers, body: { name: `Chaos Market ${i + 1}` } });
    if (reply.status !== 201) throw new Error(`registering a merchant failed: ${reply.status}`);
    const { merchantId, apiSecret, webhookSecret } = reply.body.data;
    const issuedBy = client.operations.at(-1)!.id;
    secrets.push({ name: `API secret of ${merchantId}`, value: apiSecret, issuedBy }, { name: `webhook secret of ${merchantId}`, value: webhookSecret, issuedBy });
    receiver.trust(merchantId, webhookSecret);
    // Its payouts go to a wallet (telebirr's code at Chapa; any account the sandbox pays).
    const destination = await client.send({
      kind: 'payout-destination',
      method: 'POST',
      path: '/v1/trdp/payout-destination',
      headers: { 'x-api-secret': apiSecret },
      body: { kind: 'wallet', institution: '855', accountNumber: '0911000000', holderName: `Chaos Market ${i + 1}` },
      streamId: `payout-destination-${merchantId}`,
    });
    if (destination.status !== 200) throw new Error(`setting a payout destination failed: ${destination.status}`);
    if (i === 0) {
      // A schedule set daily at this very hour in Addis Ababa (UTC+3): the day's period fell due before
      // it was set, so every pass while processes die must leave it unpaid (the schedule first pays a day
      // later), and the on-demand payouts take the money; its payout callbacks come to the receiver too.
      const settings = await client.send({
        kind: 'payout-settings',
        method: 'POST',
        path: '/v1/trdp/payout-settings',
        headers: { 'x-api-secret': apiSecret },
        body: { schedule: 'daily', hour: (new Date().getUTCHours() + 3) % 24, minimumAmount: 100, callbackURL: receiver.urlFor(merchantId) },
        streamId: `payout-settings-${merchantId}`,
      });
      if (settings.status !== 200) throw new Error(`setting a payout schedule failed: ${settings.status}`);
    }
    // Its sellers, as many as an escrow has allocations (2 to 4), onboarded as its accounts and never verified: escrows allocate to them.
    const sellers: string[] = [];
    for (let s = 1; s <= 4; s++) {
      const account = await client.send({
        kind: 'create-account',
        method: 'POST',
        path: '/v1/trdp/accounts',
        headers: { 'x-api-secret': apiSecret },
        body: { name: `Chaos Seller ${i + 1}-${s}`, type: 'individual', reference: `seller-${s}` },
      });
      if (account.status !== 201) throw new Error(`creating a seller account failed: ${account.status}`);
      sellers.push(account.body.data.accountId);
    }
    merchants.push({ merchantId, apiSecret, callbackUrl: receiver.urlFor(merchantId), sellers });
  }
  const auditor = await client.send({ kind: 'register-auditor', method: 'POST', path: '/v1/admin/auditors', headers, body: { name: 'Chaos auditor' } });
  if (auditor.status !== 201) throw new Error(`registering an auditor failed: ${auditor.status}`);
  const auditorKey = auditor.body.data.auditorKey as string;
  secrets.push({ name: 'auditor key', value: auditorKey, issuedBy: client.operations.at(-1)!.id });
  return { merchants, auditorKey, secrets };
}
