import type { OpenAPIObject } from '@nestjs/swagger';
import { ACCOUNT_EXAMPLES } from '@app/features/accounts';
import { AUDIT_EXAMPLES } from '@app/features/audit';
import { CALLBACK_EXAMPLES } from '@app/features/callbacks';
import { COMMISSION_EXAMPLES } from '@app/features/commissions';
import { ESCROW_EXAMPLES } from '@app/features/escrows';
import { PLATFORM_LINK_EXAMPLES } from '@app/features/merchants';
import { ORDER_EXAMPLES } from '@app/features/orders';
import { PAYOUT_EXAMPLES } from '@app/features/payouts';
import { TEST_CLOCK_EXAMPLES } from '@app/features/test-clocks';
import { TRANSFER_EXAMPLES } from '@app/features/transfers';
import { WEBHOOK_ENDPOINT_EXAMPLES } from '@app/features/webhook-endpoints';
import type { OperationExamples } from '@app/http';
import { ADMIN_EXAMPLES } from './admin.examples';

/** Every operation's example, by area (a feature's from its entry in libs/features): a new area's file is added here. */
export const OPERATION_EXAMPLES: OperationExamples = {
  ...ORDER_EXAMPLES,
  ...ESCROW_EXAMPLES,
  ...ACCOUNT_EXAMPLES,
  ...COMMISSION_EXAMPLES,
  ...PAYOUT_EXAMPLES,
  ...TRANSFER_EXAMPLES,
  ...PLATFORM_LINK_EXAMPLES,
  ...TEST_CLOCK_EXAMPLES,
  ...CALLBACK_EXAMPLES,
  ...WEBHOOK_ENDPOINT_EXAMPLES,
  ...AUDIT_EXAMPLES,
  ...ADMIN_EXAMPLES,
};

type Schema = Record<string, any>;

/**
 * Puts each operation's example on its JSON request body and on every success answer it documents:
 * `data` inside the envelope, with the `message` and `timestamp` that answer's schema gives.
 */
export function describeExamples(document: OpenAPIObject): void {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, Schema>)) {
      const example = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}` as keyof OperationExamples];
      if (!example) continue;
      const body = operation.requestBody?.content?.['application/json'];
      if (body && example.request) body.example = example.request;
      for (const [status, response] of Object.entries<Schema>(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const media of Object.values<Schema>(response.content ?? {})) {
          const envelope = media.schema?.properties;
          if (envelope?.data && example.data !== undefined) {
            media.example = { status: 'success', timestamp: envelope.timestamp.example, message: envelope.message.example, data: example.data };
          } else if (example.response !== undefined) {
            media.example = example.response;
          }
        }
      }
    }
  }
}
