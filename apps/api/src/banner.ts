import { escrowIdFor } from '@app/domain';
import type { AppConfig } from '@app/config';
import type { DemoMerchant } from '@app/features/merchants';
import { servedWings } from './app.factory';

/** Where `npm run example:receiver` listens: the banner's escrow sends its callbacks there. */
export const EXAMPLE_RECEIVER_URL = 'http://localhost:4000/callbacks';

/**
 * What a new user needs on the first screen: where the service is, and requests that work in turn:
 * create an escrow (its callbacks go to the example receiver), pay it as the sandbox customer,
 * release the demo merchant's share, read the escrow's history as an auditor. Only what this process
 * serves by its ROLE (app.factory.ts wingsFor): the REST edge alone announces no dashboard or audit
 * console, the faces alone no API, its docs or its requests.
 */
export function startupBanner(config: AppConfig, demo: DemoMerchant | undefined, now = new Date()): string {
  const base = config.publicBaseUrl;
  const served = servedWings(config.role);
  const lines = [
    '',
    `  Escrow ledger is listening on ${base}`,
    ...(served.rest ? [`  API docs:      ${base}/docs`] : []),
    ...(served.faces ? [`  Dashboard:     ${base}/dashboard    Audit console: ${base}/audit`] : []),
    `  Storage:       ${config.databaseUrl ? `PostgreSQL (schema ${config.databaseSchema})` : `embedded PGlite in ${config.dataDir}`}`,
  ];
  if (demo && !served.rest) {
    lines.push(
      '',
      `  Demo merchant:  ${demo.merchantId}`,
      `  Dashboard:      ${demo.dashboard.email} / ${demo.dashboard.password}`,
      `  Auditor key:    ${demo.auditorKey}    (the audit console's sign-in)`,
    );
  }
  if (demo && served.rest) {
    const orderId = `DEMO-${now.getTime()}`;
    const escrowId = escrowIdFor(demo.idSalt, orderId);
    const body = JSON.stringify({
      orderId,
      amount: 1500,
      currency: 'ETB',
      customerName: 'Abebe Kebede',
      customerPhoneNumber: '+251900000000',
      items: [{ productId: 'sku-1', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 750 }],
      allocations: [
        { merchantId: demo.merchantId, amount: 1000, metadata: { merchantName: 'Demo Marketplace', purpose: 'goods' } },
        { merchantId: 'courier-1', amount: 500, metadata: { merchantName: 'Courier', purpose: 'delivery' } },
      ],
      callbackURL: EXAMPLE_RECEIVER_URL,
    });
    const merchant = `-H 'content-type: application/json' -H 'x-api-secret: ${demo.apiSecret}'`;
    lines.push(
      '',
      `  Demo merchant:  ${demo.merchantId}`,
      `  API secret:     ${demo.apiSecret}    (test mode: the sandbox moves its money)`,
      `  Webhook secret: ${demo.webhookSecret}`,
      ...(demo.live ? [`  Live mode:      ${demo.live.merchantId} (its keys: demo-merchant.json in DATA_DIR, never printed)`] : []),
      ...(served.faces ? [`  Dashboard:      ${demo.dashboard.email} / ${demo.dashboard.password}`] : []),
      `  Auditor key:    ${demo.auditorKey}    (x-auditor-key${served.faces ? ", and the audit console's sign-in" : ''})`,
      '',
      '  Receive its callbacks (another terminal):  npm run example:receiver',
      '',
      '  1. Onboard the courier as one of your seller accounts (sent again, it finds the same account):',
      `  curl -s -w '\\n' -X POST ${base}/v1/trdp/accounts ${merchant} -d '{"name":"Kebede Delivery","type":"individual","reference":"courier-1"}'`,
      '',
      '  2. Create an escrow order, the courier named by your reference:',
      `  curl -s -w '\\n' -X POST ${base}/v1/trdp/escrow/order ${merchant} \\`,
      `    -d '${body}'`,
      '',
      '  3. Pay it, as the sandbox customer would:',
      `  curl -s -w '\\n' -X POST ${base}/v1/sandbox/orders/${orderId}/complete ${merchant} -d '{"outcome":"PAID"}'`,
      '',
      "  4. Release the demo merchant's share:",
      `  curl -s -w '\\n' -X POST ${base}/v1/trdp/escrow/${escrowId}/release ${merchant} -d '{"merchantId":"${demo.merchantId}"}'`,
      '',
      '  5. Read its history as an auditor:',
      `  curl -s -w '\\n' ${base}/v1/audit/streams/escrow-${escrowId} -H 'x-auditor-key: ${demo.auditorKey}'`,
    );
  }
  return `${lines.join('\n')}\n`;
}
