import { startApp } from '../support/app';
import { escrowRequest, registerMarketplace } from '../support/fixtures';
import { call } from '../support/http';
import { createTestSchema } from '../support/postgres';
import { waitFor } from '../support/wait';

/**
 * A release that brings a new view, or changes what a view holds, finds a deployment whose log was
 * applied long ago: its projector rebuilds that view from the log when it takes the lead, before
 * applying anything new, and leaves every other view as it was.
 */
it('rebuilds a view whose version is not the one its code writes, and only that one', async () => {
  const schema = await createTestSchema('versions');
  let running = await startApp({ schema });
  try {
    const merchant = await registerMarketplace(running.baseUrl);
    const headers = { 'x-api-secret': merchant.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/escrow/order', { body: escrowRequest({ callbackURL: undefined }), headers });
    const escrowId = created.body.data.escrowId as string;
    await call(running.baseUrl, 'POST', `/v1/sandbox/orders/${escrowId}/complete`, { body: { outcome: 'PAID' }, headers });
    const before = (await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers })).body.data;
    expect(before.status).toBe('HELD');
    await running.stop();

    // What an older release leaves: the log applied, the checkpoint past it, but this view empty and unversioned.
    const db = schema.client;
    await db.query(`DELETE FROM payables_view`);
    await db.query(`DELETE FROM projection_versions WHERE name = 'payables_view'`);
    const ledgerTable = async () => (await db.query<{ oid: string }>(`SELECT 'ledger_postings'::regclass::oid::text AS oid`))[0].oid;
    const ledgerBefore = await ledgerTable();

    running = await startApp({ schema });
    // The rebuild reaches the checkpoint the first process left, which may be short of its last event
    // (it stopped before its projector applied the payment); the projector then applies the rest.
    let last: unknown;
    const after = await waitFor(async () => {
      const res = await call(running.baseUrl, 'GET', `/v1/trdp/escrow/${escrowId}`, { headers });
      last = res.body?.data;
      return res.status === 200 && res.body.data.status === before.status && res.body.data;
    }, () => `the rebuilt view to serve the escrow as it stood (last seen: ${JSON.stringify(last)})`);
    expect(after).toEqual(before);
    const versions = await db.query<{ name: string }>(`SELECT name FROM projection_versions WHERE name = 'payables_view'`);
    expect(versions).toHaveLength(1);
    expect(await ledgerTable()).toBe(ledgerBefore);
  } finally {
    await running.close();
    await schema.drop();
  }
});
