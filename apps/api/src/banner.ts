import type { AppConfig } from '@app/config';
import type { DemoMerchant } from './merchants/demo-merchant.service';

/** What a new user needs on the first screen: where the service is, and a request that works. */
export function startupBanner(config: AppConfig, demo: DemoMerchant | undefined): string {
  const lines = [
    '',
    `  Escrow ledger is listening on ${config.publicBaseUrl}`,
    `  API docs:      ${config.publicBaseUrl}/docs`,
    `  Dashboard:     ${config.publicBaseUrl}/dashboard    Audit console: ${config.publicBaseUrl}/audit`,
    `  Storage:       ${config.databaseUrl ? `PostgreSQL (schema ${config.databaseSchema})` : `embedded PGlite in ${config.dataDir}`}`,
  ];
  if (demo) {
    const body = JSON.stringify({
      orderId: `DEMO-${Date.now()}`,
      amount: 1500,
      currency: 'ETB',
      customerName: 'Abebe Kebede',
      customerPhoneNumber: '+251900000000',
      items: [{ productId: 'sku-1', item_name: 'Coffee beans 1kg', quantity: 2, unit_price: 750 }],
      allocations: [
        { merchantId: demo.merchantId, amount: 1000, metadata: { merchantName: 'Demo Marketplace', purpose: 'goods' } },
        { merchantId: 'courier-1', amount: 500, metadata: { merchantName: 'Courier', purpose: 'delivery' } },
      ],
    });
    lines.push(
      '',
      `  Demo merchant:  ${demo.merchantId}`,
      `  API secret:     ${demo.apiSecret}`,
      `  Webhook secret: ${demo.webhookSecret}`,
      `  Dashboard:      ${demo.dashboard.email} / ${demo.dashboard.password}`,
      '',
      '  Create an escrow order:',
      `  curl -s -X POST ${config.publicBaseUrl}/v1/trdp/escrow/order \\`,
      `    -H 'content-type: application/json' -H 'x-api-secret: ${demo.apiSecret}' \\`,
      `    -d '${body}'`,
    );
  }
  return `${lines.join('\n')}\n`;
}
