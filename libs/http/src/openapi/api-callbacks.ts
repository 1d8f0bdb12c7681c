import { ApiCallbacks } from '@nestjs/swagger';
import { CALLBACK_PAYLOADS_BY_URL } from '@app/callbacks';

export type CallbackPayloads = keyof typeof CALLBACK_PAYLOADS_BY_URL;

/**
 * The callbacks an operation registers: the URL its body's `field` names receives these payloads
 * (OpenAPI 3.0 callbacks; document.ts adds their schemas and the signature headers).
 */
export function ApiCallbackPayloads(payloads: CallbackPayloads, field: string) {
  return ApiCallbacks({
    name: payloads,
    callbackUrl: `{$request.body#/${field}}`,
    method: 'post',
    requestBody: { type: payloads },
    // document.ts states every answer a callback can get.
    expectedResponse: { status: 200 },
  });
}
