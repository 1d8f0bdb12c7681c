import { SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument, type HttpWing } from '@app/http';
import { describeExamples } from './http/openapi/examples';
import { PayablesFeatureModule } from '@app/features/payables';
import { AccountsModule } from './accounts/accounts.module';
import { AuditModule } from './audit/audit.module';
import { BalancesModule } from './balances/balances.module';
import { CallbacksModule } from './callbacks/callbacks.module';
import { CommissionsModule } from './commissions/commissions.module';
import { EscrowsModule } from './escrows/escrows.module';
import { EventsModule } from './events/events.module';
import { MerchantsModule } from './merchants/merchants.module';
import { OrdersModule } from './orders/orders.module';
import { PaymentsHttpModule } from './payments/payments-http.module';
import { PayoutsModule } from './payouts/payouts.module';
import { TestClocksModule } from './test-clocks/test-clocks.module';
import { TransfersModule } from './transfers/transfers.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';

const API_DESCRIPTION = `Payment orders, escrow orders with merchant allocations, verification, signed callbacks, payouts and the audit API.

Successes are \`{status: "success", timestamp, message, data}\`; errors are the envelope
\`{status: "error", timestamp, path, message, error: {code, message}}\` as \`application/json\`, or, when the
request's \`Accept\` prefers \`application/problem+json\`, RFC 9457 problem details (\`type\` is
\`urn:escrow-ledger:problem:{code}\`, \`status\` the HTTP status) with the envelope's fields as extension members.
Each operation lists the statuses it answers and, for each refusal, its codes (all of them explained in
docs/reference/errors.md of the repository).

Every POST accepts an \`Idempotency-Key\` header.`;

/**
 * The REST edge as a process serves it: the /v1 routes of merchants, platforms, operators, auditors and payment
 * providers, each feature's module mounting its controllers over its handlers (libs/features), and their OpenAPI
 * document at /docs-json with Swagger UI at /docs. The process around it is libs/http's, so the edge runs alone
 * (ROLE=rest) or beside the faces (ROLE=all, api).
 */
export const restEdge: HttpWing = {
  // In the order Nest scans them, which is the OpenAPI document's order of paths.
  modules: [
    MerchantsModule,
    PayablesFeatureModule,
    OrdersModule,
    EscrowsModule,
    AccountsModule,
    CommissionsModule,
    PaymentsHttpModule,
    CallbacksModule,
    EventsModule,
    PayoutsModule,
    BalancesModule,
    WebhookEndpointsModule,
    TransfersModule,
    TestClocksModule,
    AuditModule,
  ],
  mount(app) {
    SwaggerModule.setup('docs', app, buildOpenApiDocument(app, API_DESCRIPTION, describeExamples), { jsonDocumentUrl: 'docs-json' });
  },
};
